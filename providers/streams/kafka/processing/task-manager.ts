/**
 * The tasks of one run (Kafka Streams' TaskManager): on each assignment it closes the tasks the member lost (and
 * those another member moved on meanwhile), opens the new ones, drops local state that is ahead of its topics,
 * fences their changelogs and restores their stores up to the fences, and finds the dead letters an earlier run
 * wrote but did not commit. Under exactly_once_v2 transactions do the fences' and the dead-letter search's work: it
 * restores each changelog read_committed up to its end, and a restored task takes the group's offsets as its
 * positions.
 */
import type { GlobalStores } from "../../state/global-store";
import type { ClusterAdmin, KafkaEndpoint, PartitionOffsets, TopicPartitionOffset } from "../../../kafka-client";
import type { LevelDbConfigSetter } from "../../../../kernel/contracts/streams/stores";
import type { ComponentLogger } from "../../../../kernel/logger";
import { type CompiledTopology, parseTaskId, taskIdOf } from "../../engine/compiled-topology";
import { errorPolicy } from "../../engine/error-policy";
import type { ErrorPhase, FailedRecord, TaskEnvironment } from "../../engine/stream-task";
import type { RunMetrics } from "../../metrics/run-metrics";
import type { CacheBudget } from "../../state/record-cache";
import { tasksWithState, taskStateDirectory } from "../../state/task-state";
import type { RecordingLevel } from "../../../../kernel/contracts/streams/processor";
import type { StreamsSettings } from "../../streams-config";
import { fenceRecord } from "../changelog/changelog-fence";
import { restoreFromChangelogs } from "../changelog/changelog-restorer";
import { deadLetterRecord, deadLettersOf, inputRecordKey, type DeadLetterTopic } from "../topics/dead-letters";
import type { RecordCollector } from "./record-collector";
import { committedOffsets as committedOffsetsOf, commitRestoredPositions, committedPositions, localStateIsAuthoritative, localStateIsCurrent, openRunTask, planRestore, staleStateReason, type RunTask } from "./run-task";
import { settledAll } from "./settled-all";
import { decodeOffsetMetadata } from "./offset-metadata";
import { MAX_TASK_IDLE_MS_DISABLED } from "../../engine/partition-group";
import { TopicEnds } from "../topics/topic-ends";
import { TopicPartitionMap } from "../topics/topic-partition";

export interface ReadyTasks {
  tasks: readonly RunTask[];
  partitions: readonly number[];
}

const NO_READY_TASKS: ReadyTasks = { tasks: [], partitions: [] };

export interface TaskManagerOptions {
  topology: CompiledTopology;
  stateDir: string;
  configSetter?: LevelDbConfigSetter;
  endpoint: KafkaEndpoint;
  clientIdPrefix: string;
  collector: RecordCollector;
  /** Set when processing.error.policy is dead_letter. */
  deadLetters?: DeadLetterTopic;
  /** processing.guarantee=exactly_once_v2. */
  exactlyOnce: boolean;
  settings: StreamsSettings;
  sendEvent: TaskEnvironment["sendEvent"];
  /** The record cache bytes the run's tasks share. */
  cacheBudget: CacheBudget;
  metrics: RunMetrics;
  logger: ComponentLogger;
  /** The instance's global stores, which every task's processors may read. */
  globalStores?: GlobalStores;
}

/** The member an assignment was made to: its group generation and member id. */
export interface AssignedMember {
  generation: number;
  memberId: string;
}

export class TaskManager {
  private readonly tasks = new Map<string, RunTask>();
  /** readyOf's answers, by sub-topology; dropped whenever a task opens, closes or finishes restoring. */
  private ready?: Map<number, ReadyTasks>;
  /** What every task of the run is given: where its outputs and events go, and the error policy. */
  private readonly env: TaskEnvironment;

  constructor(private readonly options: TaskManagerOptions) {
    const { topology, collector, deadLetters, settings, logger } = options;
    const deadLetter = deadLetters && ((failed: FailedRecord, error: unknown, phase: ErrorPhase, taskId: string) => this.deadLetter(deadLetters, failed, error, phase, taskId));
    this.env = {
      applicationId: topology.applicationId,
      appConfigs: Object.freeze(settings.all()),
      stateDir: (taskId) => taskStateDirectory(options.stateDir, topology.applicationId, taskId),
      metrics: (taskId) => options.metrics.processorMetrics(taskId, settings.get("metrics.recording.level") as RecordingLevel),
      emit: (record) => collector.collect(record),
      sendEvent: options.sendEvent,
      onError: errorPolicy(settings, logger, deadLetter),
      now: Date.now,
      maxTaskIdleMs: maxTaskIdleMs(settings),
      globalStores: options.globalStores,
    };
  }

  /** The task of a fetched partition, if this member has one. */
  taskOf(topic: string, partition: number): RunTask | undefined {
    const sub = this.options.topology.subTopologyOfTopic(topic);
    return sub === undefined ? undefined : this.tasks.get(taskIdOf(sub, partition));
  }

  all(): RunTask[] {
    return [...this.tasks.values()];
  }

  /** What this member tells the assignor as it joins: the tasks it runs, and the others whose state it has on disk. */
  held(): { previousTasks: string[]; localTasks: string[] } {
    const { stateDir, topology } = this.options;
    return { previousTasks: [...this.tasks.keys()], localTasks: tasksWithState(stateDir, topology.applicationId).filter((id) => !this.tasks.has(id)) };
  }

  /** Tasks that are ready (restored) for queries. */
  readyTasks(): RunTask[] {
    return this.all().filter((task) => !task.restoring);
  }

  /** The ready tasks of one sub-topology and their partitions, ascending; kept until the tasks change, since every interactive query asks. */
  readyOf(subTopologyId: number): ReadyTasks {
    this.ready ??= groupReady(this.readyTasks());
    return this.ready.get(subTopologyId) ?? NO_READY_TASKS;
  }

  /**
   * Makes the open tasks those of `assignment`, each restored and ready; `committed`: the group's offsets the
   * consumer took the assignment over at, whose metadata holds each partition's time.
   */
  async reconcile(assignment: Record<string, number[]>, admin: ClusterAdmin, member: AssignedMember, committed: readonly TopicPartitionOffset[] = []): Promise<void> {
    const { topology, logger, exactlyOnce } = this.options;
    const offsets = committedOffsetsOf(committed);
    const wanted = new Set<string>();
    for (const [topic, partitions] of Object.entries(assignment)) {
      const sub = topology.subTopologyOfTopic(topic);
      if (sub !== undefined) for (const partition of partitions) wanted.add(taskIdOf(sub, partition));
    }
    // A task kept across the rebalance whose input the group committed past its local state was processed by
    // another member meanwhile (this one missed generations: a broker restart, a lost session): reopen it, so
    // its stores are restored from the changelog instead of going on from what this member last knew.
    const kept = this.all().filter((task) => wanted.has(task.id) && topology.subTopologies[task.subTopologyId].stores.length > 0);
    const overtaken = new Set(kept.filter((task) => !localStateIsCurrent(offsets, topology, task)).map((task) => task.id));
    if (overtaken.size > 0) logger.info("tasks processed elsewhere meanwhile are restored again", { tasks: [...overtaken] });
    await this.close([...this.tasks.keys()].filter((id) => !wanted.has(id) || overtaken.has(id)));
    const ends = new TopicEnds(admin);
    // Side by side; when one fails, each opened one is already held, to be closed.
    const opened = await settledAll([...wanted].filter((id) => !this.tasks.has(id)).map((id) => this.open(id, ends, offsets)));
    const restoreEnds = exactlyOnce ? await this.changelogEnds(opened, ends) : await this.fence(opened, member);
    const targets = opened.flatMap((task) => planRestore(offsets, restoreEnds.get(task.id)!, topology, task, exactlyOnce));
    for (const target of targets) logger.debug("restore planned", { store: target.store, topic: target.topic, partition: target.partition, from: target.from, to: target.to });
    await restoreFromChangelogs(this.options.endpoint, `${this.options.clientIdPrefix}-restore-consumer`, topology.applicationId, targets, logger);
    for (const target of targets) this.options.metrics.restored(target.store, target.restored.records);
    if (exactlyOnce) {
      for (const task of opened) if (!localStateIsAuthoritative(offsets, topology, task)) await commitRestoredPositions(offsets, topology, task);
    } else if (this.options.deadLetters !== undefined) await this.findDeadLetters(opened, ends, this.options.deadLetters);
    for (const task of opened) {
      // A restore that followed commit markers took the positions of the restored state with it.
      Object.assign(task, committedPositions(task.state));
      restorePartitionTimes(task, topology, committed);
      // The task's own changelog records come right after its fences (checkChangelogLanded).
      if (!exactlyOnce) for (const [store, offset] of restoreEnds.get(task.id)!) task.changelogPositions.set(store, offset);
      await task.task.prepare();
      task.restoring = false;
      this.ready = undefined;
    }
  }

  async close(ids: readonly string[] = [...this.tasks.keys()]): Promise<void> {
    for (const id of ids) {
      const task = this.tasks.get(id);
      if (!task) continue;
      this.tasks.delete(id);
      this.ready = undefined;
      task.task.close();
      await task.state.close();
      this.options.metrics.taskRemoved(id);
    }
  }

  /** Under exactly_once_v2: where each changelog partition of `tasks` ends now, task → store → offset: their restores end there. */
  private async changelogEnds(tasks: readonly RunTask[], ends: TopicEnds): Promise<Map<string, Map<string, number>>> {
    const { topology } = this.options;
    const byTask = new Map<string, Map<string, number>>();
    for (const task of tasks) {
      const stores = new Map<string, number>();
      for (const store of topology.loggedStoresOf(task.subTopologyId)) stores.set(store, (await ends.of(topology.changelogTopic(store), task.partition))?.high ?? 0);
      byTask.set(task.id, stores);
    }
    return byTask;
  }

  /**
   * Writes a fence to each changelog partition of `tasks` (see changelog-fence): their restores end there, and each
   * task's commits must land after it under the fence's producer id. Answers task → store → the fence's offset.
   */
  private async fence(tasks: readonly RunTask[], member: AssignedMember): Promise<Map<string, Map<string, number>>> {
    const { topology, collector } = this.options;
    const fenced = tasks.flatMap((task) => topology.loggedStoresOf(task.subTopologyId).map((store) => ({ task, store, topic: topology.changelogTopic(store) })));
    const landed = new TopicPartitionMap<PartitionOffsets>();
    if (fenced.length > 0) {
      for (const partition of await collector.flush(fenced.map(({ task, topic }) => fenceRecord(topic, task.partition, member.generation, member.memberId)))) landed.set(partition.topic, partition.partition, partition);
    }
    const fences = new Map(tasks.map((task) => [task.id, new Map<string, number>()]));
    for (const { task, store, topic } of fenced) {
      const fence = landed.get(topic, task.partition)!;
      fences.get(task.id)!.set(store, fence.lastOffset);
      task.changelogWriter = fence.producerId;
    }
    return fences;
  }

  /** `committed`: the group's offsets; local state behind them holds stores without changelogs that must start empty. */
  private async open(id: string, ends: TopicEnds, committed: TopicPartitionMap<number>): Promise<RunTask> {
    const { topology, logger, metrics } = this.options;
    const { subTopologyId, partition } = parseTaskId(id);
    const openOptions = {
      topology,
      subTopologyId,
      partition,
      stateDir: this.options.stateDir,
      configSetter: this.options.configSetter,
      cacheBudget: this.options.cacheBudget,
      env: this.env,
      counters: metrics.storeCounters(),
      logger,
    };
    let task = await openRunTask(openOptions);
    const stale = await staleStateReason(ends, topology, task);
    const specs = topology.storeSpecsOf(subTopologyId);
    const inMemory = specs.filter((spec) => spec.inMemory === true).map((spec) => spec.name);
    const unlogged = specs.filter((spec) => spec.logging === false).map((spec) => spec.name);
    // As with Kafka Streams' in-memory stores, nothing of them outlives an assignment: they come back from their changelogs.
    const dropsInMemory = inMemory.length > 0 && !task.positions.isEmpty();
    // A store without a changelog is kept only where the local state is exact and current: when another member
    // processed the task since, what it holds is stale and nothing can bring it up to date, so it starts empty.
    const dropsUnlogged = unlogged.length > 0 && !task.positions.isEmpty() && !localStateIsCurrent(committed, topology, task);
    const dropped = stale !== undefined || dropsInMemory || dropsUnlogged;
    if (stale !== undefined) logger.warn("local state dropped, to be restored from the changelogs: it does not fit its topics or its topology", { task: id, reason: stale });
    else if (dropsUnlogged) logger.info("local state dropped: it is behind the group's offsets, and stores without changelogs start empty", { task: id, stores: unlogged });
    else if (dropped) logger.debug("local state dropped: the task has in-memory stores, restored from their changelogs", { task: id, stores: inMemory });
    if (dropped) {
      await task.state.destroy();
      task = await openRunTask(openOptions);
    }
    task.restoring = true;
    this.tasks.set(id, task);
    this.ready = undefined;
    metrics.task(id, () => task.task.counters.dropped);
    return task;
  }

  /** Dead letters that runs before this one wrote for `tasks` but did not commit: they are not written again. */
  private async findDeadLetters(tasks: readonly RunTask[], ends: TopicEnds, deadLetters: DeadLetterTopic): Promise<void> {
    for (const task of tasks) {
      const partition = deadLetters.partitionOf(task.partition);
      const from = new Map([[partition, task.positions.deadLetters.get(deadLetters.name, partition) ?? 0]]);
      task.deadLettered = await deadLettersOf(this.options.endpoint, `${this.options.clientIdPrefix}-dlq-reader`, ends, deadLetters.name, from, task.id);
    }
  }

  /** Writes a record that failed in `phase` to the dead-letter topic, unless an earlier run did and did not commit. */
  private deadLetter(deadLetters: DeadLetterTopic, failed: FailedRecord, error: unknown, phase: ErrorPhase, taskId: string): void {
    if (this.tasks.get(taskId)?.deadLettered.delete(inputRecordKey(failed.topic, failed.partition, failed.record.offset))) return;
    const { topology, collector, logger } = this.options;
    collector.collect(deadLetterRecord(deadLetters.name, deadLetters.partitionOf(failed.partition), failed, error, phase, topology.applicationId, taskId));
    logger.warn(`a record that failed in ${phase} goes to the dead-letter topic`, { taskId, topic: failed.topic, partition: failed.partition, offset: failed.record.offset, deadLetterTopic: deadLetters.name, error: String(error) });
  }
}

/** `max.task.idle.ms`, checked: -1 or more. */
function maxTaskIdleMs(settings: StreamsSettings): number {
  const value = settings.get("max.task.idle.ms");
  if (value < MAX_TASK_IDLE_MS_DISABLED) throw new Error(`max.task.idle.ms must be -1 (no idling) or more, got ${value}`);
  return value;
}

/**
 * Each input partition of an opened task starts from its time as committed: with the group's offset (Kafka Streams'
 * offset metadata) or with the task's state, whichever is later (the state may be ahead of the group's offsets).
 */
function restorePartitionTimes(task: RunTask, topology: CompiledTopology, committed: readonly TopicPartitionOffset[]): void {
  for (const topic of topology.subTopologies[task.subTopologyId].sourceTopics) {
    const offset = committed.find((entry) => entry.topic === topic && entry.partition === task.partition);
    const time = Math.max(decodeOffsetMetadata(offset?.metadata), task.positions.times.get(topic, task.partition) ?? -1);
    if (time >= 0) task.task.restorePartitionTime(topic, time);
  }
}

function groupReady(tasks: RunTask[]): Map<number, ReadyTasks> {
  const bySub = new Map<number, RunTask[]>();
  for (const task of tasks) {
    const list = bySub.get(task.subTopologyId);
    if (list) list.push(task);
    else bySub.set(task.subTopologyId, [task]);
  }
  return new Map(
    [...bySub].map(([sub, list]) => {
      const sorted = list.sort((a, b) => a.partition - b.partition);
      return [sub, { tasks: sorted, partitions: sorted.map((task) => task.partition) }];
    }),
  );
}

