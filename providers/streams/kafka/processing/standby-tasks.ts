/**
 * The standby tasks of one run (Kafka Streams' StandbyTask): warm copies of other members' task stores. Each is the
 * task's local state alone — no processors, no input — kept up by reading its stores' changelogs from the state's
 * checkpoint on, round after round, through the changelog restorer: each round reads up to where the changelogs end
 * when it starts, and the next one goes on from the checkpoint the last batch applied left. Records of a commit not
 * yet finished (no commit marker after them yet) are read again next round, from that checkpoint, once it has
 * finished. When the task becomes active here, the task manager opens the same state and restores only the changelog
 * tail past that checkpoint. A store with logging disabled has no changelog: its copy stays empty and answers no query.
 */
import type { ClusterAdmin, KafkaEndpoint } from "../../../kafka-client";
import type { LevelDbConfigSetter, ReadOnlyStore } from "../../../../kernel/contracts/streams/stores";
import type { ComponentLogger } from "../../../../kernel/logger";
import { type CompiledTopology, parseTaskId, taskIdOf } from "../../engine/compiled-topology";
import { openTaskState, type TaskState } from "../../state/task-state";
import { decodeWriter } from "../changelog/changelog-fence";
import { restoreFromChangelogs, type RestoreTarget } from "../changelog/changelog-restorer";
import { TopicEnds } from "../topics/topic-ends";
import { committedPositions, staleStateReason } from "./run-task";

/** The pause between rounds once a round found nothing new: how stale a standby may get beyond its changelogs' ends. */
const CAUGHT_UP_PAUSE_MS = 100;

export interface StandbyTask {
  id: string;
  subTopologyId: number;
  partition: number;
  state: TaskState;
  /** Store → the changelog records not yet applied, as of the last round (-1 before one). */
  lag: Map<string, number>;
}

export interface StandbyTasksOptions {
  topology: CompiledTopology;
  stateDir: string;
  configSetter?: LevelDbConfigSetter;
  endpoint: KafkaEndpoint;
  clientIdPrefix: string;
  /** processing.guarantee=exactly_once_v2: the changelogs carry no fences or commit markers to follow. */
  exactlyOnce: boolean;
  logger: ComponentLogger;
  /** The standby updating failed for good (the run fails with it). */
  onFatal(error: unknown): void;
}

export class StandbyTasks {
  private readonly tasks = new Map<string, StandbyTask>();
  /** The update loop while it runs: it ends once `running` is false, after its round. */
  private loop?: Promise<void>;
  private running = false;

  constructor(private readonly options: StandbyTasksOptions) {}

  all(): StandbyTask[] {
    return [...this.tasks.values()];
  }

  /** A standby's store for stale-allowing queries (committed data only), with its lag; undefined without that standby. */
  readOnly(subTopologyId: number, partition: number, store: string): { store: ReadOnlyStore; lag: number } | undefined {
    const task = this.tasks.get(taskIdOf(subTopologyId, partition));
    const lag = task?.lag.get(store);
    // Before its first round a copy's lag is not known: it does not answer yet.
    return task === undefined || lag === undefined || lag < 0 ? undefined : { store: task.state.readOnly(store), lag };
  }

  /** Stops updating and closes the standbys other than `kept` (those this member no longer holds, or now runs actively). */
  async release(kept: ReadonlySet<string> = new Set()): Promise<void> {
    await this.pause();
    for (const [id, task] of [...this.tasks]) {
      if (kept.has(id)) continue;
      this.tasks.delete(id);
      await task.state.close();
    }
  }

  /** Makes the standbys those of `ids`, opening the new ones, and keeps them all updated. */
  async assign(ids: readonly string[], admin: ClusterAdmin): Promise<void> {
    const wanted = new Set(ids);
    await this.release(wanted);
    const ends = new TopicEnds(admin);
    for (const id of wanted) if (!this.tasks.has(id)) this.tasks.set(id, await this.open(id, ends));
    if (this.tasks.size === 0) return;
    this.running = true;
    this.loop = this.update(admin);
  }

  private async pause(): Promise<void> {
    this.running = false;
    await this.loop;
    this.loop = undefined;
  }

  private async open(id: string, ends: TopicEnds): Promise<StandbyTask> {
    const { topology, logger } = this.options;
    const { subTopologyId, partition } = parseTaskId(id);
    const specs = topology.storeSpecsOf(subTopologyId);
    const openState = () => openTaskState({ stateDir: this.options.stateDir, applicationId: topology.applicationId, taskId: id, stores: specs, configSetter: this.options.configSetter, logger });
    let state = await openState();
    const stale = await staleStateReason(ends, topology, { state, partition, ...committedPositions(state) });
    // In-memory stores start empty: a checkpoint left by an earlier holder does not describe them.
    const inMemory = specs.some((spec) => spec.inMemory === true) && Object.keys(state.checkpoint().changelogPositions).length > 0;
    if (stale !== undefined) logger.warn("standby state dropped, to be read again from the changelogs: it does not fit its topics or its topology", { task: id, reason: stale });
    if (stale !== undefined || inMemory) {
      await state.destroy();
      state = await openState();
    }
    logger.debug("standby task opened", { task: id });
    return { id, subTopologyId, partition, state, lag: new Map(topology.loggedStoresOf(subTopologyId).map((store) => [store, -1])) };
  }

  private async update(admin: ClusterAdmin): Promise<void> {
    const { topology, endpoint, clientIdPrefix, logger } = this.options;
    try {
      while (this.running) {
        const targets = await this.targets(new TopicEnds(admin));
        // A rebalance does not wait for a long catch-up: the round stops between fetches, its batches applied.
        await restoreFromChangelogs(endpoint, `${clientIdPrefix}-standby-consumer`, topology.applicationId, targets, logger, () => !this.running);
        if (targets.every((target) => target.restored.records === 0)) await new Promise((resolve) => setTimeout(resolve, CAUGHT_UP_PAUSE_MS));
      }
    } catch (error) {
      if (!this.running) return;
      this.running = false;
      this.options.onFatal(error);
    }
  }

  /** Each store's changelog from the standby's checkpoint to where it ends now; the lags as they stand. */
  private async targets(ends: TopicEnds): Promise<RestoreTarget[]> {
    const { topology, exactlyOnce } = this.options;
    const targets: RestoreTarget[] = [];
    for (const task of this.tasks.values()) {
      const stores = topology.loggedStoresOf(task.subTopologyId);
      const { changelogPositions } = committedPositions(task.state);
      const writers = task.state.checkpoint().changelogWriters;
      for (const store of stores) {
        const topic = topology.changelogTopic(store);
        const from = (changelogPositions.get(store) ?? -1) + 1;
        const to = (await ends.of(topic, task.partition))?.high ?? 0;
        task.lag.set(store, Math.max(0, to - from));
        const target = { state: task.state, store, topic, partition: task.partition, from, to, restored: { records: 0 }, standby: true };
        targets.push(exactlyOnce ? { ...target, followMarkers: false, skipFences: true } : { ...target, followMarkers: stores.length === 1, writer: decodeWriter(writers[store]) });
      }
    }
    return targets;
  }
}
