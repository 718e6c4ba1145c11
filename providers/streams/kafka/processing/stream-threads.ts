/**
 * One run of an application instance with its stream threads (Kafka Streams' `num.stream.threads`): each thread is a
 * member of the group with its own consumer, producer and tasks (see stream-thread); they share the instance's
 * process id, global stores and record cache budget. Threads are added and removed while the run goes on
 * (KafkaStreams#addStreamThread, #removeStreamThread), named `<application.id>-StreamThread-N` with the lowest free N.
 * The run is RUNNING once every thread has its assignment, REBALANCING while any thread rebalances. It answers the
 * views for all its threads at once (RunView): a partition's store is read from the thread whose task owns it.
 *
 * Where threads run: an instance of more than one thread runs each in a worker thread of its own (WorkerStreamThread),
 * so that its threads use as many cores, when a worker can build the topology again — its provider and the named code
 * load from modules (see thread-source) — and the topology has no global stores (a worker cannot read the main
 * thread's; one GlobalStreamThread per worker would read every global topic once per thread). Otherwise, and for a
 * lone thread (a worker would only add copies and messages), threads run on the process's main event loop, as more
 * group members and transactions but not more cores. A thread's kind is chosen as it is created and never changes.
 */
import type { ClusterAdmin } from "../../../kafka-client";
import type { ReadOnlyStore, StoreStats } from "../../../../kernel/contracts/streams/stores";
import type { MetricsRegistry } from "../../metrics/metrics-registry";
import { RunMetrics } from "../../metrics/run-metrics";
import { CacheBudget } from "../../state/record-cache";
import { processIdOf } from "../../state/process-id";
import { InstanceGlobals } from "./instance-globals";
import type { PositionFigures, RunView, StorePartitionFigures, ThreadView } from "./run-view";
import { StreamThread, type StreamThreadOptions } from "./stream-thread";
import { recoverCrashedTasks } from "./task-offset-sums";
import type { ConfigValue } from "../../../../kernel/contracts/streams/topology-provider";
import type { LocalEventStreamHub } from "../../events/event-stream-hub";
import type { ThreadPlacement, ThreadSource } from "./worker/thread-source";
import { WorkerStreamThread } from "./worker/worker-stream-thread";

/** A thread's options, but for what the run gives each thread itself: its metrics, index, process id and shared parts. */
export type StreamThreadsOptions = Omit<StreamThreadOptions, "metrics" | "index" | "processId" | "globals" | "cacheBudget" | "hub"> & {
  /** The application's event streams: a worker sends its events only while a type has subscribers. */
  hub: LocalEventStreamHub;
  /** The application's metrics registry: each thread records its metrics there, tagged with its name. */
  registry: MetricsRegistry;
  /** Where threads may run, and what a worker builds the topology from. */
  workers: { placement: ThreadPlacement; bootstrapServers: string[]; values: Record<string, ConfigValue> };
};

/** A thread of the run: on the main event loop, or in a worker thread. */
type RunThread = StreamThread | WorkerStreamThread;

type Task = { id: string; subTopologyId: number; partition: number };
type ThreadCallbacks = Pick<StreamThreadOptions, "onRebalancing" | "onRunning" | "onFatal">;

export class StreamThreads implements RunView {
  private readonly threads: RunThread[] = [];
  /** Threads that have their assignment and are not rebalancing. */
  private readonly running = new Set<RunThread>();
  /** The main-loop threads' metrics (a worker's are mirrored into the registry by its WorkerStreamThread). */
  private readonly metrics = new Map<RunThread, RunMetrics>();
  /** What workers build the topology from; undefined: every thread runs on the main event loop. */
  private readonly workerSource: ThreadSource | undefined;
  private readonly mainLoopReason: string | undefined;
  /** The main-loop threads' record cache budget: their share of `statestore.cache.max.bytes` (see resizeCaches). */
  private readonly cacheBudget: CacheBudget;
  private globals?: InstanceGlobals;
  private process?: string;
  private paused: boolean;
  private stopped = false;
  /** Whether the run said why its threads share the main event loop. */
  private explained = false;

  constructor(private readonly options: StreamThreadsOptions) {
    this.cacheBudget = new CacheBudget(options.settings.get("statestore.cache.max.bytes"));
    this.paused = options.paused;
    const { placement } = options.workers;
    if (options.topology.globalStoreSpecs().length > 0) this.mainLoopReason = "its topology has global stores, which a worker thread cannot read";
    else if ("mainLoop" in placement) this.mainLoopReason = placement.mainLoop;
    else this.workerSource = placement.source;
  }

  /** Starts `count` threads together; resolves once each is under way (joining the group). */
  async start(count: number): Promise<void> {
    const { options } = this;
    this.process = await processIdOf(options.stateDir, options.topology.applicationId);
    const recovered = await recoverCrashedTasks(options.topology, options.stateDir);
    if (recovered.length > 0) options.logger.info("tasks a dead process left open report the changelog positions of their databases", { applicationId: options.topology.applicationId, tasks: recovered });
    const created = Array.from({ length: count }, () => this.create(count));
    await Promise.all(created.map((thread) => thread.start()));
  }

  /** A new thread, started; its name. */
  async add(): Promise<string> {
    const thread = this.create(this.threads.length + 1);
    try {
      await thread.start();
    } catch (error) {
      await this.discard(thread);
      throw error;
    }
    return thread.name;
  }

  /**
   * Stops a thread (the one named, or the first) and forgets it: it leaves the group, its tasks move to the other
   * members. Undefined when there is no such thread.
   */
  async remove(name?: string): Promise<string | undefined> {
    const thread = name === undefined ? this.threads[0] : this.threads.find((candidate) => candidate.name === name);
    if (!thread) return undefined;
    await this.discard(thread);
    return thread.name;
  }

  /** The thread names, in index order. */
  names(): string[] {
    return this.threads.map((thread) => thread.name);
  }

  get size(): number {
    return this.threads.length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.threads.map((thread) => thread.stop()));
    await this.globals?.stop();
  }

  pause(): void {
    this.paused = true;
    for (const thread of this.threads) thread.pause();
  }

  resume(): void {
    this.paused = false;
    for (const thread of this.threads) thread.resume();
  }

  /** A new thread, of an instance that is to have `threads` threads: in a worker when that is more than one, and it can. */
  private create(threads: number): RunThread {
    const index = this.freeIndex();
    const callbacks = this.callbacks(() => thread);
    if (threads > 1 && !this.workerSource && !this.explained) {
      this.explained = true;
      this.options.logger.info("the stream threads run on the main event loop, sharing one core", { applicationId: this.options.topology.applicationId, reason: this.mainLoopReason });
    }
    const thread: RunThread = threads > 1 && this.workerSource ? this.workerThread(index, this.workerSource, threads, callbacks) : this.mainLoopThread(index, callbacks);
    this.threads.push(thread);
    this.threads.sort((a, b) => a.index - b.index);
    this.resizeCaches();
    return thread;
  }

  private mainLoopThread(index: number, callbacks: ThreadCallbacks): StreamThread {
    const { options } = this;
    const prefix = options.clientIdPrefix;
    const metrics = new RunMetrics(options.registry, `${options.topology.applicationId}-StreamThread-${index}`, `${prefix}-StreamThread-${index}-consumer`, `${prefix}-StreamThread-${index}-producer`);
    this.globals ??= new InstanceGlobals({ ...options, metrics, onFatal: (error) => this.fatal(error) });
    const thread = new StreamThread({ ...options, ...callbacks, metrics, index, processId: this.process!, globals: this.globals, cacheBudget: this.cacheBudget, paused: this.paused });
    this.metrics.set(thread, metrics);
    return thread;
  }

  /** A worker's record cache is its own: it gets its share of the instance's budget, as the instance is to have `threads` threads. */
  private workerThread(index: number, source: ThreadSource, threads: number, callbacks: ThreadCallbacks): WorkerStreamThread {
    const { options } = this;
    const { bootstrapServers, values } = options.workers;
    const data = {
      source,
      values,
      bootstrapServers,
      clientIdPrefix: options.clientIdPrefix,
      index,
      processId: this.process!,
      cacheMaxBytes: this.cacheShare(threads),
      paused: this.paused,
      debug: options.logger.isLevelEnabled?.("debug") ?? true,
    };
    return new WorkerStreamThread({ ...options, ...callbacks, data });
  }

  /** What a thread tells the run; nothing once the thread is no longer one of the run's. */
  private callbacks(thread: () => RunThread): ThreadCallbacks {
    const { options } = this;
    return {
      onRebalancing: () => {
        this.running.delete(thread());
        if (this.threads.includes(thread())) options.onRebalancing();
      },
      onRunning: () => {
        if (!this.threads.includes(thread())) return;
        this.running.add(thread());
        if (this.threads.every((member) => this.running.has(member))) options.onRunning();
      },
      onFatal: (error) => {
        if (this.threads.includes(thread())) this.fatal(error);
      },
    };
  }

  /** Stops a thread and forgets it and its metrics; the others may be RUNNING then. */
  private async discard(thread: RunThread): Promise<void> {
    this.threads.splice(this.threads.indexOf(thread), 1);
    this.running.delete(thread);
    await thread.stop();
    this.metrics.get(thread)?.removed();
    this.metrics.delete(thread);
    this.resizeCaches();
    if (this.threads.length > 0 && this.threads.every((member) => this.running.has(member))) this.options.onRunning();
  }

  /** Each thread's share of `statestore.cache.max.bytes` when the instance has `threads` threads. */
  private cacheShare(threads: number): number {
    return Math.floor(this.options.settings.get("statestore.cache.max.bytes") / Math.max(1, threads));
  }

  /**
   * As Kafka Streams resizes its thread caches when a thread is added or removed: every thread gets an equal share of
   * the instance's budget. The main-loop threads share one budget (the sum of their shares), each worker has its own.
   */
  private resizeCaches(): void {
    const share = this.cacheShare(this.threads.length);
    const mainLoop = this.threads.filter((thread) => thread instanceof StreamThread).length;
    this.cacheBudget.maxBytes = mainLoop === this.threads.length ? this.options.settings.get("statestore.cache.max.bytes") : share * mainLoop;
    for (const thread of this.threads) if (thread instanceof WorkerStreamThread) thread.resizeCache(share);
  }

  private fatal(error: unknown): void {
    if (!this.stopped) this.options.onFatal(error);
  }

  /** The lowest N no thread has. */
  private freeIndex(): number {
    const taken = new Set(this.threads.map((thread) => thread.index));
    let index = 1;
    while (taken.has(index)) index++;
    return index;
  }

  // RunView: the threads' answers put together.

  threadViews(): ThreadView[] {
    return this.threads.map((thread) => ({
      name: thread.name,
      state: this.running.has(thread) ? "RUNNING" : "REBALANCING",
      clientIds: thread.clientIds,
      activeTasks: () => thread.activeTasks(),
      standbyTasks: () => thread.standbyTasks(),
      positions: () => thread.positions(),
    }));
  }

  /** The first thread's: it is the instance's member for the views' questions about the group. */
  private get first(): RunThread | undefined {
    return this.threads[0];
  }

  get clientIds(): RunView["clientIds"] {
    return this.first?.clientIds ?? { consumer: "", producer: "", admin: `${this.options.clientIdPrefix}-admin` };
  }

  get admin(): ClusterAdmin | undefined {
    return this.threads.find((thread) => thread.admin !== undefined)?.admin;
  }

  get memberId(): string | null {
    return this.first?.memberId ?? null;
  }

  get generationId(): number {
    return this.first?.generationId ?? -1;
  }

  get processId(): string | undefined {
    return this.process;
  }

  partitionCount(topic: string): number | undefined {
    for (const thread of this.threads) {
      const count = thread.partitionCount(topic);
      if (count !== undefined) return count;
    }
    return undefined;
  }

  activeTasks(): Task[] {
    return this.threads.flatMap((thread) => thread.activeTasks());
  }

  standbyTasks(): Task[] {
    return this.threads.flatMap((thread) => thread.standbyTasks());
  }

  positions(): { topic: string; partition: number; figures: PositionFigures }[] {
    return this.threads.flatMap((thread) => thread.positions());
  }

  queryablePartitions(subTopologyId: number): readonly number[] {
    if (this.threads.length === 1) return this.threads[0].queryablePartitions(subTopologyId);
    return this.threads.flatMap((thread) => thread.queryablePartitions(subTopologyId)).sort((a, b) => a - b);
  }

  readOnlyStore(subTopologyId: number, partition: number, store: string): ReadOnlyStore | undefined {
    for (const thread of this.threads) {
      const found = thread.readOnlyStore(subTopologyId, partition, store);
      if (found) return found;
    }
    return undefined;
  }

  standbyStore(subTopologyId: number, partition: number, store: string): { store: ReadOnlyStore; lag: number } | undefined {
    for (const thread of this.threads) {
      const found = thread.standbyStore(subTopologyId, partition, store);
      if (found) return found;
    }
    return undefined;
  }

  globalStore(store: string): ReadOnlyStore | undefined {
    return this.globals?.store(store);
  }

  storePartitions(): StorePartitionFigures[] {
    return this.threads.flatMap((thread) => thread.storePartitions());
  }

  async storeStatistics(): Promise<{ task: string; stores: StoreStats[] }[]> {
    return (await Promise.all(this.threads.map((thread) => thread.storeStatistics()))).flat();
  }
}
