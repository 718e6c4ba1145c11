/**
 * What the streams runtime exposes about each running application, for the REST plugins
 * (docs/api.md). Shapes are data; the plugins turn them into the JSON of the API.
 */
import type { ReadOnlyStore, StoreType } from "./stores";
import { token } from "../token";
import type { ConfigValue, EventStreamDeclaration, EventStreamLimitHandler } from "./topology-provider";

/**
 * The applications running in this process, registered in the container under STREAMS_RUNTIME_TOKEN by the
 * streams runtime plugin; the REST plugins (streams, applications, events) resolve it.
 */
export interface ApplicationRegistry {
  /** Sorted by id. */
  applications(): ApplicationHandle[];
  application(id: string): ApplicationHandle | undefined;
}

export const STREAMS_RUNTIME_TOKEN = token<ApplicationRegistry>("sluice.streams.StreamsRuntime");

export const APPLICATION_STATES = ["CREATED", "REBALANCING", "RUNNING", "PENDING_SHUTDOWN", "NOT_RUNNING", "ERROR"] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];

export interface StateChange {
  applicationId: string;
  from: ApplicationState;
  to: ApplicationState;
  /** Epoch milliseconds. */
  at: number;
}

export interface TopicPartitionRef {
  topic: string;
  partition: number;
}

export interface TaskStatus {
  taskId: string;
  topicPartitions: TopicPartitionRef[];
}

export interface ThreadStatus {
  name: string;
  state: ApplicationState;
  activeTasks: TaskStatus[];
  standbyTasks: TaskStatus[];
  clients: { consumerClientId: string; producerClientIds: string[]; adminClientId: string };
}

export interface ApplicationStatus {
  id: string;
  state: ApplicationState;
  /** Empty unless RUNNING or REBALANCING. */
  threads: ThreadStatus[];
}

/** -1 where a figure is not known. `lag = max(logEndOffset - (consumedOffset + 1), 0)`. */
export interface PartitionPosition {
  topic: string;
  partition: number;
  consumedOffset: number;
  consumedTimestamp: number;
  committedOffset: number;
  committedTimestamp: number;
  logEndOffset: number;
  logStartOffset: number;
  lag: number;
}

export interface ApplicationOffsets {
  group: string;
  consumers: { clientId: string; streamThread: string; positions: PartitionPosition[] }[];
}

export interface Metric {
  name: string;
  description: string;
  tags: Record<string, string>;
  value: number | string | null;
}

export interface MetricGroup {
  name: string;
  metrics: Metric[];
}

export type TopologyNodeType = "SOURCE" | "PROCESSOR" | "SINK";

export interface TopologyNode {
  type: TopologyNodeType;
  name: string;
  predecessors: string[];
  successors: string[];
  /** SOURCE only. */
  topics?: string[];
  /** SINK only; absent when a TopicNameExtractor picks the topic per record. */
  topic?: string;
  /** PROCESSOR only (may be empty). */
  stores?: string[];
}

export interface TopologyGraph {
  version: string;
  subTopologies: { id: number; nodes: TopologyNode[] }[];
  globalStores: string[];
}

export interface InstanceInfo {
  /** `host:port`, or null when that instance has no application.server (it cannot be asked). */
  server: string | null;
  /** Its member id in the consumer group; null for this instance while it is not a member. */
  memberId: string | null;
  isLocal: boolean;
  /** This instance's state, given when it is not running: it is then in no group assignment. */
  state?: ApplicationState;
  stores: string[];
  assignments: { topic: string; partitions: number[] }[];
  standbyAssignments: { topic: string; partitions: number[] }[];
}

export interface KeyOwner {
  partition: number;
  /** The owning instance, or null when no member of the group owns that partition now. */
  instance: InstanceInfo | null;
  /** The instances holding a standby of that partition (num.standby.replicas), which stale-allowing queries may ask. */
  standbys: readonly InstanceInfo[];
}

export interface StoreHandle {
  name: string;
  type: StoreType;
  /** Names of the store's key and value serdes (`string`, `long`, `json`, …). */
  keySerde: string;
  valueSerde: string;
  /** Partitions of this store hosted by this instance. */
  localPartitions(): readonly number[];
  /** False while the application rebalances, restores or is not running. */
  queryable(): boolean;
  /** Undefined when that partition is not local or not queryable now. */
  readOnly(partition: number): ReadOnlyStore | undefined;
  /**
   * A local standby copy of that partition (num.standby.replicas), for queries that allow stale reads, with how many
   * changelog records it is behind; undefined when this instance holds none.
   */
  standbyReadOnly?(partition: number): { store: ReadOnlyStore; lag: number } | undefined;
  /** Turns a JSON key of a query into the store's key type; throws when the serde cannot take it. */
  keyFromJson(key: unknown): unknown;
  /** The partition the default partitioner gives a key (as `keyFromJson` returns it) among the store's partitions. */
  partitionOf(key: unknown): number;
  /** A global store: every instance holds all of it, so a query never leaves the instance it reached. */
  readonly global?: boolean;
}

export interface StorePartitionStatus {
  store: string;
  partition: number;
  changelogTopic: string;
  /** Last changelog offset applied locally; -1 when none. */
  changelogPosition: number;
  logEndOffset: number;
  lag: number;
  restoring: boolean;
  restoredRecords: number;
  /** Records restored per second in the current (or last) restoration of this partition; 0 before any. */
  restoreRate?: number;
  /** A standby task's copy (num.standby.replicas), kept from the changelog; it answers only stale-allowing queries. */
  standby: boolean;
}

export interface EventRecord {
  type: string;
  key: unknown;
  value: unknown;
  timestamp: number;
  /** Names of the serdes the topology declares for the stream's keys and values, when it does. */
  keySerde?: string;
  valueSerde?: string;
}

/** The per-application fan-out point the SSE plugin attaches to. */
export interface EventStreamHub {
  declarations(): readonly EventStreamDeclaration[];
  /** Returns the unsubscribe function. Listeners run synchronously and must not block. */
  subscribe(type: string, listener: (record: EventRecord) => void): () => void;
  /** Called when the application stops: open streams should end. */
  onClose(listener: () => void): () => void;
}

export interface ApplicationHandle {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string | null;
  /** Epoch ms when the instance (re)started. */
  readonly since: number;
  readonly state: ApplicationState;
  readonly stateSince: number;
  /** The recorded error, as `Name: message`, when there is one. */
  readonly exception: string | null;
  /** Restarts the application made by itself after errors (`restart.on.error=backoff`). */
  readonly restarts: number;
  /**
   * Paused (Kafka Streams' isPaused): beside its state, which stays RUNNING or REBALANCING while it runs. A paused
   * instance fetches and punctuates nothing but keeps its group membership, partitions and queryable stores.
   */
  readonly paused: boolean;
  /** Flat map, secrets hidden, keys sorted. */
  config(): Record<string, ConfigValue>;
  status(): ApplicationStatus;
  offsets(): Promise<ApplicationOffsets>;
  metrics(): MetricGroup[];
  topology(): TopologyGraph;
  /** Resolves once NOT_RUNNING. */
  stop(options?: { cleanup?: boolean; timeoutMs?: number }): Promise<void>;
  /** Resolves once the new run has started (state no longer NOT_RUNNING). */
  restart(options?: { timeoutMs?: number }): Promise<void>;
  /** Takes effect at once on the run in progress and holds for the runs that follow, until resume(). */
  pause(): void;
  resume(): void;
  /** The names of its stream threads (`<id>-StreamThread-N`), while it runs; none otherwise. */
  streamThreads(): string[];
  /** KafkaStreams#addStreamThread: the new thread's name, or null when the instance is not RUNNING or REBALANCING. */
  addStreamThread(): Promise<string | null>;
  /**
   * KafkaStreams#removeStreamThread: removes the thread named (or the first); it leaves the group and its tasks move.
   * Its name, or null when the instance is not RUNNING or REBALANCING or has no such thread. Rejects for the last one.
   */
  removeStreamThread(name?: string): Promise<string | null>;
  onStateChange(listener: (change: StateChange) => void): () => void;
  instances(): Promise<readonly InstanceInfo[]>;
  ownerOf(storeName: string, keyJson: unknown): Promise<KeyOwner>;
  store(name: string): StoreHandle | undefined;
  storeNames(): string[];
  storesStatus(): Promise<StorePartitionStatus[]>;
  eventStreams(): readonly EventStreamDeclaration[];
  eventHub(): EventStreamHub;
}

export type { ConfigValue, EventStreamDeclaration, EventStreamLimitHandler, StoreType };
