/**
 * What a worker-hosted stream thread and its main-thread proxy tell each other (postMessage, structured clone): the
 * thread's start, callbacks and views one way, lifecycle orders and calls (store queries, statistics) the other.
 */
import type { MetricGroup } from "../../../../../kernel/contracts/streams/runtime";
import type { ConfigValue } from "../../../../../kernel/contracts/streams/topology-provider";
import type { LineLevel } from "../../../../../kernel/logger";
import type { PositionFigures, StorePartitionFigures } from "../run-view";
import type { ThreadSource } from "./thread-source";
import type { ClonedError } from "./cloned-values";

/** What the worker is started with (workerData): enough to build the application's topology and one StreamThread. */
export interface ThreadWorkerData {
  source: ThreadSource;
  /** The application's effective configuration values (every layer merged). */
  values: Record<string, ConfigValue>;
  bootstrapServers: string[];
  clientIdPrefix: string;
  index: number;
  processId: string;
  /** This thread's share of `statestore.cache.max.bytes`. */
  cacheMaxBytes: number;
  paused: boolean;
  /** Debug lines are forwarded only when the main logger writes them. */
  debug: boolean;
  /** The event stream types with subscribers: events of the others are not sent (see the `subscribed` message). */
  subscribed: string[];
}

export type Task = { id: string; subTopologyId: number; partition: number };

/** The thread's views as of one moment: the proxy answers the synchronous RunView questions from the last one. */
export interface ThreadSnapshot {
  memberId: string | null;
  generationId: number;
  partitionCounts: [string, number][];
  activeTasks: Task[];
  standbyTasks: Task[];
  positions: { topic: string; partition: number; figures: PositionFigures }[];
  /** By sub-topology id. */
  queryablePartitions: number[][];
  storePartitions: StorePartitionFigures[];
  /** The standby stores that answer queries, with their lags. */
  standbyStores: { subTopologyId: number; partition: number; store: string; lag: number }[];
}

/** A store query: the method of the store of a task (or standby) and its arguments. */
export interface StoreCall {
  subTopologyId: number;
  partition: number;
  store: string;
  standby: boolean;
  method: string;
  args: unknown[];
}

export type MainToWorker =
  | { kind: "stop" }
  | { kind: "pause" }
  | { kind: "resume" }
  | { kind: "subscribed"; types: string[] }
  /** Whether the main logger writes debug lines now (the log level was changed). */
  | { kind: "debug"; on: boolean }
  /** The thread's new share of the instance's record cache budget. */
  | { kind: "cache"; maxBytes: number }
  | { kind: "call"; id: number; call: { store: StoreCall } | { next: number } | { close: number } | { statistics: true } };

/** A page of an iteration: its entries, and the cursor to ask for the next page (undefined once it is done). */
export interface Page {
  entries: unknown[];
  cursor?: number;
}

export type WorkerToMain =
  | { kind: "started" }
  | { kind: "startFailed"; error: ClonedError }
  | { kind: "snapshot"; snapshot: ThreadSnapshot }
  | { kind: "rebalancing" }
  | { kind: "running" }
  | { kind: "fatal"; error: ClonedError }
  | { kind: "stopped" }
  /** A call's answer: a store method's value, a Page of an iteration, or the store statistics. */
  | { kind: "reply"; id: number; value?: unknown; error?: ClonedError }
  | { kind: "event"; events: [type: string, key: unknown, value: unknown, timestamp: number][] }
  | { kind: "metrics"; groups: MetricGroup[] }
  | { kind: "log"; level: LineLevel; message: string; fields?: Record<string, unknown> };
