/**
 * What the REST plugins read of one application (docs/api.md): its threads and tasks, consumed offsets and lag,
 * the instances of its group, which instance owns a key, its stores and their restoration. Answered from the
 * compiled topology and, while the application runs, from its run through RunView.
 */
import { ClusterAdmin, type KafkaEndpoint } from "../../kafka-client";
import type {
  ApplicationOffsets,
  ApplicationState,
  ApplicationStatus,
  InstanceInfo,
  KeyOwner,
  StoreHandle,
  StorePartitionStatus,
} from "../../../kernel/contracts/streams/runtime";
import type { StoreSpec } from "../../../kernel/contracts/streams/stores";
import type { ComponentLogger } from "../../../kernel/logger";
import type { CompiledTopology } from "../engine/compiled-topology";
import { restoreRate } from "../kafka/changelog/changelog-restorer";
import { TopicEnds } from "../kafka/topics/topic-ends";
import { GroupInstances } from "../kafka/assignment/group-instances";
import type { RunView } from "../kafka/processing/run-view";
import { keyFromJson, partitionOfStoreKey } from "./store-keys";
import type { GlobalStoreSpec } from "../state/global-store";

/** The one partition a global store answers as. */
const GLOBAL_PARTITION = 0;

/** What the views need of the application itself. */
export interface ViewedApplication {
  readonly id: string;
  readonly topology: CompiledTopology;
  /** `application.server` of this instance; null without one. */
  readonly server: string | null;
  /** Where its cluster is, for an admin client of its own that asks questions while no run is there. */
  readonly endpoint: KafkaEndpoint;
  readonly logger: ComponentLogger;
  state(): ApplicationState;
  /** The current run, if any. */
  run(): RunView | undefined;
}

/** How long a stopped instance's question about its group is retried. */
const STOPPED_ADMIN_TIMEOUT_MS = 1_000;

/** How a stopped instance asks for its group: it has no member id and no generation. */
const NOT_A_MEMBER = { memberId: null, generationId: -1 };

const running = (state: ApplicationState) => state === "RUNNING" || state === "REBALANCING";

export class ApplicationViews {
  private readonly groupInstances: GroupInstances;

  constructor(private readonly app: ViewedApplication) {
    this.groupInstances = new GroupInstances(app.id, app.topology);
  }

  status(): ApplicationStatus {
    const { id, topology } = this.app;
    const state = this.app.state();
    const run = this.app.run();
    if (!run || !running(state)) return { id, state, threads: [] };
    const statusOf = (tasks: readonly { id: string; subTopologyId: number; partition: number }[]) =>
      [...tasks]
        .sort((a, b) => a.subTopologyId - b.subTopologyId || a.partition - b.partition)
        .map((task) => ({
          taskId: task.id,
          topicPartitions: topology.subTopologies[task.subTopologyId].sourceTopics
            .filter((topic) => (run.partitionCount(topic) ?? 0) > task.partition)
            .map((topic) => ({ topic, partition: task.partition })),
        }));
    const threads = run.threadViews().map((thread) => {
      const { consumer, producer, admin } = thread.clientIds;
      const clients = { consumerClientId: consumer, producerClientIds: [producer], adminClientId: admin };
      return { name: thread.name, state: thread.state, activeTasks: statusOf(thread.activeTasks()), standbyTasks: statusOf(thread.standbyTasks()), clients };
    });
    return { id, state, threads };
  }

  async offsets(): Promise<ApplicationOffsets> {
    const { id } = this.app;
    const run = this.app.run();
    const admin = run?.admin;
    if (!run || !admin || !running(this.app.state())) return { group: id, consumers: [] };
    // The positions are copied before the ends are asked: read after, they could pass the ends.
    const threads = run.threadViews().map((thread) => ({ thread, consumed: thread.positions() }));
    const ends = new TopicEnds(admin);
    const consumers = await Promise.all(
      threads.map(async ({ thread, consumed }) => {
        const positions = await Promise.all(
          consumed.map(async ({ topic, partition, figures }) => {
            const end = await ends.of(topic, partition);
            const logEndOffset = end?.high ?? -1;
            const lag = end === undefined ? -1 : figures.consumedOffset < 0 ? -1 : Math.max(logEndOffset - (figures.consumedOffset + 1), 0);
            return { topic, partition, ...figures, logEndOffset, logStartOffset: end?.low ?? -1, lag };
          }),
        );
        positions.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
        return { clientId: thread.clientIds.consumer, streamThread: thread.name, positions };
      }),
    );
    return { group: id, consumers };
  }

  async instances(): Promise<readonly InstanceInfo[]> {
    const run = this.app.run();
    const admin = run?.admin;
    const ended = () => this.app.run() !== run || this.app.state() === "NOT_RUNNING" || this.app.state() === "ERROR";
    if (!run || !admin || ended()) return this.instancesWhileStopped();
    try {
      return await this.groupInstances.list(run, admin);
    } catch (error) {
      // The run stopped or failed while its admin client was asked: the group is asked without it.
      if (ended()) return this.instancesWhileStopped();
      throw error;
    }
  }

  async ownerOf(storeName: string, keyJson: unknown): Promise<KeyOwner> {
    const { topology } = this.app;
    // Every instance holds the whole of a global store: a key is answered here, with no routing.
    if (topology.globalStoreSpec(storeName) !== undefined) return { partition: GLOBAL_PARTITION, instance: null, standbys: [] };
    const spec = topology.storeSpec(storeName);
    const sub = topology.subTopologyOfStore(storeName);
    if (!spec || sub === undefined) throw new Error(`unknown store '${storeName}'`);
    const partition = this.partitionOf(spec, this.widthTopic(spec, sub), keyFromJson(spec.keySerde, keyJson));
    const sourceTopics = topology.subTopologies[sub].sourceTopics;
    const holds = (assignments: InstanceInfo["assignments"]) => assignments.some((entry) => sourceTopics.includes(entry.topic) && entry.partitions.includes(partition));
    const instances = await this.instances();
    const instance = instances.find((candidate) => holds(candidate.assignments));
    return { partition, instance: instance ?? null, standbys: instances.filter((candidate) => holds(candidate.standbyAssignments)) };
  }

  store(name: string): StoreHandle | undefined {
    const { topology } = this.app;
    const global = topology.globalStoreSpec(name);
    if (global !== undefined) return this.globalStore(global);
    const spec = topology.storeSpec(name);
    const sub = topology.subTopologyOfStore(name);
    if (!spec || sub === undefined) return undefined;
    const partitions = () => this.app.run()?.queryablePartitions(sub) ?? [];
    const widthTopic = this.widthTopic(spec, sub);
    return {
      name,
      type: spec.type,
      keySerde: spec.keySerde.name,
      valueSerde: spec.valueSerde.name,
      localPartitions: partitions,
      // Queries over every partition (all, range) need the whole layout settled: while a rebalance moves partitions,
      // those in flight are nobody's, and an answer without them would look whole. A key's partition left in place
      // by a (cooperative) rebalance answers meanwhile, as Kafka Streams allows (readOnly).
      queryable: () => this.app.state() === "RUNNING" && partitions().length > 0,
      readOnly: (partition) => (running(this.app.state()) ? this.app.run()?.readOnlyStore(sub, partition, name) : undefined),
      standbyReadOnly: (partition) => this.app.run()?.standbyStore(sub, partition, name),
      keyFromJson: (key) => keyFromJson(spec.keySerde, key),
      partitionOf: (key) => this.partitionOf(spec, widthTopic, key),
    };
  }

  /**
   * A global store answers as one partition, which every instance hosts once its run has caught the store up. A
   * rebalance leaves it whole, so it answers while REBALANCING too, as Kafka Streams' store() does for global stores.
   */
  private globalStore(spec: GlobalStoreSpec): StoreHandle {
    const readOnly = () => (running(this.app.state()) ? this.app.run()?.globalStore(spec.name) : undefined);
    return {
      name: spec.name,
      type: spec.type,
      keySerde: spec.keySerde.name,
      valueSerde: spec.valueSerde.name,
      localPartitions: () => (readOnly() === undefined ? [] : [GLOBAL_PARTITION]),
      queryable: () => readOnly() !== undefined,
      readOnly: (partition) => (partition === GLOBAL_PARTITION ? readOnly() : undefined),
      keyFromJson: (key) => keyFromJson(spec.keySerde, key),
      partitionOf: () => GLOBAL_PARTITION,
      global: true,
    };
  }

  /** A topic as wide as the store's sub-topology: its changelog, or for a store without one the sub-topology's first input. */
  private widthTopic(spec: StoreSpec, subTopologyId: number): string {
    const { topology } = this.app;
    return spec.logging === false ? topology.subTopologies[subTopologyId].sourceTopics[0] : topology.changelogTopic(spec.name);
  }

  /** A store key's partition among the partitions of `topic` (one before the run knows how many). */
  private partitionOf(spec: StoreSpec, topic: string, key: unknown): number {
    return partitionOfStoreKey(spec.keySerde, key, this.app.run()?.partitionCount(topic) ?? 1);
  }

  async storesStatus(): Promise<StorePartitionStatus[]> {
    const { topology } = this.app;
    const run = this.app.run();
    const admin = run?.admin;
    if (!run || !admin) return [];
    // Every task figure is taken at once, before the log ends are asked: read after, a position could pass its
    // end, or a finished restore show its old position.
    const snapshot = run.storePartitions().map(({ store, partition, changelogPosition, restoring, restored, standby }) => ({
      store,
      partition,
      changelogTopic: topology.changelogTopic(store),
      changelogPosition,
      restoring,
      restoredRecords: restored?.records ?? 0,
      restoreRate: restoreRate(restored),
      standby,
    }));
    const ends = new TopicEnds(admin);
    const statuses = await Promise.all(
      snapshot.map(async (entry): Promise<StorePartitionStatus> => {
        const logEndOffset = (await ends.of(entry.changelogTopic, entry.partition))?.high ?? -1;
        return { ...entry, logEndOffset, lag: Math.max(logEndOffset - (entry.changelogPosition + 1), 0) };
      }),
    );
    return statuses.sort((a, b) => (a.store < b.store ? -1 : a.store > b.store ? 1 : a.partition - b.partition));
  }

  /**
   * With no run, this instance is in no group: the other members come from the coordinator through an admin
   * client of its own (connected only for the question), and this one is listed with its state.
   */
  private async instancesWhileStopped(): Promise<readonly InstanceInfo[]> {
    const local: InstanceInfo = { server: this.app.server, memberId: null, isLocal: true, state: this.app.state(), stores: [], assignments: [], standbyAssignments: [] };
    // A few retries at most: a broker that is down must not hold the servers record for a whole API timeout.
    const admin = new ClusterAdmin({ ...this.app.endpoint, clientId: `${this.app.id}-admin`, apiTimeoutMs: STOPPED_ADMIN_TIMEOUT_MS });
    try {
      // A member advertising this instance's server is its last run, still leaving the group.
      const others = (await this.groupInstances.list(NOT_A_MEMBER, admin)).filter((other) => other.server === null || other.server !== local.server);
      return [...others, local].sort((a, b) => String(a.server).localeCompare(String(b.server)));
    } catch (error) {
      this.app.logger.warn("the group's other instances could not be asked", { applicationId: this.app.id, error: (error as Error).message });
      return [local];
    } finally {
      admin.close();
    }
  }
}
