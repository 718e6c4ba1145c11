/**
 * A stream thread run in a worker thread of its own (Node's worker_threads), so that an instance's threads use more
 * than one core; this is its main-thread side, which StreamThreads holds as it holds a StreamThread. The worker (see
 * thread-worker) runs a real StreamThread with its own consumer, producer and admin client. The synchronous views
 * answer from the last snapshot the worker reported; store queries and statistics are calls to the worker. The
 * worker's metrics are mirrored into the application's registry, its events sent to the application's hub, its log
 * lines written by the application's logger. A worker that fails or exits before it is stopped is the thread's fatal
 * error; stop() lets it commit, leave its group and close its stores, then terminates it.
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { ClusterAdmin, type KafkaEndpoint } from "../../../../kafka-client";
import type { ReadOnlyStore, StoreStats } from "../../../../../kernel/contracts/streams/stores";
import type { ComponentLogger } from "../../../../../kernel/logger";
import type { CompiledTopology } from "../../../engine/compiled-topology";
import type { LocalEventStreamHub } from "../../../events/event-stream-hub";
import type { MetricsRegistry } from "../../../metrics/metrics-registry";
import type { PositionFigures, StorePartitionFigures, ThreadRunView } from "../run-view";
import { reviveBuffers, reviveError } from "./cloned-values";
import { remoteStore, type StoreCalls } from "./remote-store";
import type { MainToWorker, Page, Task, ThreadSnapshot, ThreadWorkerData, WorkerToMain } from "./thread-messages";

const WORKER_FILE = path.join(__dirname, "thread-worker.js");
/** A worker whose thread has not stopped by then is terminated anyway, so that no stop leaves a thread behind. */
const STOP_TIMEOUT_MS = 60_000;

export interface WorkerStreamThreadOptions {
  /** What the worker starts with, but for the event types with subscribers, read as it starts. */
  data: Omit<ThreadWorkerData, "subscribed">;
  topology: CompiledTopology;
  endpoint: KafkaEndpoint;
  hub: Pick<LocalEventStreamHub, "send" | "subscribedTypes" | "onSubscribersChange">;
  registry: MetricsRegistry;
  logger: ComponentLogger;
  onRebalancing(): void;
  onRunning(): void;
  onFatal(error: unknown): void;
}

const EMPTY: ThreadSnapshot = { memberId: null, generationId: -1, partitionCounts: [], activeTasks: [], standbyTasks: [], positions: [], queryablePartitions: [], storePartitions: [], standbyStores: [] };

export class WorkerStreamThread implements ThreadRunView {
  readonly name: string;
  readonly index: number;
  readonly clientIds: ThreadRunView["clientIds"];
  private worker?: Worker;
  private snapshot = EMPTY;
  private partitionCounts = new Map<string, number>();
  private adminClient?: ClusterAdmin;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  private nextCall = 1;
  private started?: { resolve(): void; reject(error: unknown): void };
  private stopping?: Promise<void>;
  private exited = false;
  private readonly calls: StoreCalls;
  private unsubscribe?: () => void;
  /** Whether the worker sends debug lines. */
  private debug: boolean;

  constructor(private readonly options: WorkerStreamThreadOptions) {
    const { data, topology } = options;
    this.index = data.index;
    this.name = `${topology.applicationId}-StreamThread-${data.index}`;
    this.clientIds = { consumer: `${data.clientIdPrefix}-StreamThread-${data.index}-consumer`, producer: `${data.clientIdPrefix}-StreamThread-${data.index}-producer`, admin: `${data.clientIdPrefix}-admin` };
    this.debug = data.debug;
    this.calls = {
      store: (call) => this.call({ store: call }),
      next: (cursor) => this.call({ next: cursor }) as Promise<Page>,
      close: async (cursor) => void (await this.call({ close: cursor })),
    };
  }

  /** Starts the worker; resolves once its thread is under way (joining the group), rejects with its thread's error. */
  start(): Promise<void> {
    const { hub } = this.options;
    const worker = new Worker(WORKER_FILE, { workerData: { ...this.options.data, subscribed: hub.subscribedTypes() } });
    this.worker = worker;
    this.unsubscribe = hub.onSubscribersChange(() => this.send({ kind: "subscribed", types: hub.subscribedTypes() }));
    worker.on("message", (message: WorkerToMain) => this.receive(message));
    worker.on("error", (error) => this.failed(error));
    worker.on("exit", (code) => {
      this.exited = true;
      if (!this.stopping) this.failed(new Error(`the worker of stream thread ${this.name} exited with code ${code}`));
      for (const call of this.pending.values()) call.reject(new Error(`stream thread ${this.name} has stopped`));
      this.pending.clear();
    });
    return new Promise<void>((resolve, reject) => (this.started = { resolve, reject }));
  }

  /** The thread commits, leaves its group and closes its stores; then its worker ends. */
  stop(): Promise<void> {
    this.stopping ??= this.stopWorker();
    return this.stopping;
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.unsubscribe?.();
    this.adminClient?.close();
    this.started?.reject(new Error(`stream thread ${this.name} was stopped as it started`));
    this.started = undefined;
    if (!worker || this.exited) return;
    const stopped = new Promise<void>((resolve) => {
      worker.on("message", (message: WorkerToMain) => message.kind === "stopped" && resolve());
      worker.once("exit", () => resolve());
    });
    this.send({ kind: "stop" });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS)));
    if (await Promise.race([stopped.then(() => false), timedOut])) this.options.logger.warn("a stream thread did not stop in time: its worker is terminated", { thread: this.name, timeoutMs: STOP_TIMEOUT_MS });
    clearTimeout(timer);
    await worker.terminate();
    this.options.registry.unmirror(this.name);
  }

  pause(): void {
    this.send({ kind: "pause" });
  }

  resume(): void {
    this.send({ kind: "resume" });
  }

  /** A change of the log level (PUT /api/v1/log/level) reaches the worker with its next snapshot's answer. */
  private followLogLevel(): void {
    const debug = this.options.logger.isLevelEnabled?.("debug") ?? true;
    if (debug === this.debug) return;
    this.debug = debug;
    this.send({ kind: "debug", on: debug });
  }

  /** Its share of the instance's record cache budget, as threads come and go. */
  resizeCache(maxBytes: number): void {
    this.send({ kind: "cache", maxBytes });
  }

  private send(message: MainToWorker): void {
    if (!this.exited) this.worker?.postMessage(message);
  }

  private call(call: Extract<MainToWorker, { kind: "call" }>["call"]): Promise<unknown> {
    if (this.exited || !this.worker) return Promise.reject(new Error(`stream thread ${this.name} has stopped`));
    const id = this.nextCall++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ kind: "call", id, call });
    });
  }

  private receive(message: WorkerToMain): void {
    const { options } = this;
    switch (message.kind) {
      case "started":
        this.adminClient = new ClusterAdmin({ ...options.endpoint, clientId: this.clientIds.admin, logger: options.logger });
        this.started?.resolve();
        this.started = undefined;
        return;
      case "startFailed":
        this.failed(reviveError(message.error));
        return;
      case "snapshot":
        this.snapshot = message.snapshot;
        this.partitionCounts = new Map(message.snapshot.partitionCounts);
        this.followLogLevel();
        return;
      case "rebalancing":
        options.onRebalancing();
        return;
      case "running":
        options.onRunning();
        return;
      case "fatal":
        this.failed(reviveError(message.error));
        return;
      case "reply": {
        const call = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) call?.reject(reviveError(message.error));
        else call?.resolve(message.value);
        return;
      }
      case "event":
        this.deliver(message.events);
        return;
      case "metrics":
        if (!this.stopping) options.registry.mirror(this.name, message.groups);
        return;
      case "log":
        options.logger[message.level](message.message, message.fields);
        return;
      case "stopped":
        return;
    }
  }

  /**
   * A worker's events, to the subscribers. An event stream whose limit handler is `throw` cannot throw into the
   * worker's topology any more once its queue is full here: the worker has moved on, and the event is dropped, logged.
   */
  private deliver(events: Extract<WorkerToMain, { kind: "event" }>["events"]): void {
    for (const [type, key, value, timestamp] of events) {
      try {
        this.options.hub.send(type, reviveBuffers(key), reviveBuffers(value), timestamp);
      } catch (error) {
        this.options.logger.warn("an event of a worker thread is dropped", { thread: this.name, type, error: String(error) });
      }
    }
  }

  /** Before it is under way, a failure is its start's; after, the thread's fatal error (never once it is stopping). */
  private failed(error: unknown): void {
    if (this.stopping) return;
    const started = this.started;
    this.started = undefined;
    if (started) started.reject(error);
    else this.options.onFatal(error);
  }

  get admin(): ClusterAdmin | undefined {
    return this.adminClient;
  }

  get memberId(): string | null {
    return this.snapshot.memberId;
  }

  get generationId(): number {
    return this.snapshot.generationId;
  }

  partitionCount(topic: string): number | undefined {
    return this.partitionCounts.get(topic);
  }

  activeTasks(): readonly Task[] {
    return this.snapshot.activeTasks;
  }

  standbyTasks(): readonly Task[] {
    return this.snapshot.standbyTasks;
  }

  positions(): { topic: string; partition: number; figures: PositionFigures }[] {
    return this.snapshot.positions.map(({ topic, partition, figures }) => ({ topic, partition, figures: { ...figures } }));
  }

  queryablePartitions(subTopologyId: number): readonly number[] {
    return this.snapshot.queryablePartitions[subTopologyId] ?? [];
  }

  readOnlyStore(subTopologyId: number, partition: number, store: string): ReadOnlyStore | undefined {
    if (!this.queryablePartitions(subTopologyId).includes(partition)) return undefined;
    return this.storeOf(subTopologyId, partition, store, false);
  }

  standbyStore(subTopologyId: number, partition: number, store: string): { store: ReadOnlyStore; lag: number } | undefined {
    const standby = this.snapshot.standbyStores.find((candidate) => candidate.subTopologyId === subTopologyId && candidate.partition === partition && candidate.store === store);
    const found = standby && this.storeOf(subTopologyId, partition, store, true);
    return found && { store: found, lag: standby.lag };
  }

  private storeOf(subTopologyId: number, partition: number, store: string, standby: boolean): ReadOnlyStore | undefined {
    const { topology } = this.options;
    const spec = topology.subTopologies[subTopologyId]?.stores.includes(store) ? topology.storeSpec(store) : undefined;
    return spec && remoteStore(spec.type, { subTopologyId, partition, store, standby }, this.calls);
  }

  /** Topologies with global stores keep their threads on the main event loop (see StreamThreads). */
  globalStore(): ReadOnlyStore | undefined {
    return undefined;
  }

  storePartitions(): StorePartitionFigures[] {
    return this.snapshot.storePartitions;
  }

  async storeStatistics(): Promise<{ task: string; stores: StoreStats[] }[]> {
    return (await this.call({ statistics: true })) as { task: string; stores: StoreStats[] }[];
  }
}
