/**
 * The metrics of one application run (docs/api.md#metrics groups and names), recorded by the runner as it works
 * and read through the registry.
 */
import type { MetricsRegistry, RateAndTotal, Counter } from "./metrics-registry";
import type { MovingRate } from "./moving-rate";
import type { RecordingLevel, StreamsMetrics } from "../../../kernel/contracts/streams/processor";
import { streamsMetrics } from "./streams-metrics";

/** What a transaction cost, as the producer measured it (under exactly_once_v2). */
export interface TransactionTimes {
  /** From the transaction's first write to its commit answered: how long its outputs waited for read_committed readers. */
  openMs: number;
  /** sendOffsetsToTransaction (AddOffsetsToTxn and TxnOffsetCommit). */
  sendOffsetsNs: number;
  /** commitTransaction (EndTxn, once the sends are acknowledged). */
  commitNs: number;
}

/** The producer's transaction metrics, as Kafka's producer names them (`txn-*-time-ns-total`), with counts and latency. */
interface TransactionMetrics {
  initNs: Counter;
  sendOffsetsNs: Counter;
  commitNs: Counter;
  abortNs: Counter;
  commits: RateAndTotal;
  aborts: RateAndTotal;
  latency: { count: number; sum: number; max: number };
}

interface StoreMetrics {
  name: string;
  puts: MovingRate;
  gets: MovingRate;
  restored: Counter;
}

export class RunMetrics {
  private readonly threadTags: Record<string, string>;
  private readonly processed: RateAndTotal;
  private readonly polls: MovingRate;
  private readonly commits: RateAndTotal;
  private readonly consumedRecords: RateAndTotal;
  private readonly consumedBytes: Counter;
  private readonly sentRecords: RateAndTotal;
  private readonly commitLatency = { count: 0, sum: 0, max: 0 };
  private lagMax = 0;
  private transactionMetrics?: TransactionMetrics;
  private readonly tasks = new Map<string, { processed: MovingRate; dropped: () => number }>();
  private readonly stores = new Map<string, StoreMetrics>();
  /** The store counted last: reads and writes come in runs of one store, counted by the million. */
  private lastStore: StoreMetrics | undefined;

  constructor(
    private readonly registry: MetricsRegistry,
    threadId: string,
    private readonly consumerClientId: string,
    private readonly producerClientId: string,
  ) {
    this.threadTags = { "thread-id": threadId };
    const thread = "stream-thread-metrics";
    this.processed = registry.rateAndTotal(thread, "process", "Records processed", this.threadTags);
    this.polls = registry.rate(thread, "poll-rate", "Fetch requests per second", this.threadTags);
    this.commits = registry.rateAndTotal(thread, "commit", "Offset commits", this.threadTags);
    registry.gauge(thread, "commit-latency-avg", "Average time of a batch commit (produce and store write), ms", this.threadTags, () =>
      this.commitLatency.count === 0 ? 0 : this.commitLatency.sum / this.commitLatency.count,
    );
    registry.gauge(thread, "commit-latency-max", "Longest batch commit (produce and store write), ms", this.threadTags, () => this.commitLatency.max);
    const consumerTags = { "client-id": consumerClientId };
    const fetch = "consumer-fetch-manager-metrics";
    this.consumedRecords = registry.rateAndTotal(fetch, "records-consumed", "Records consumed", consumerTags);
    this.consumedBytes = registry.counter(fetch, "bytes-consumed-total", "Total bytes of keys and values consumed", consumerTags);
    registry.gauge(fetch, "records-lag-max", "Largest partition lag seen in the last fetched batch", consumerTags, () => this.lagMax);
    this.sentRecords = registry.rateAndTotal("producer-metrics", "record-send", "Records sent", { "client-id": producerClientId });
  }

  /** Under exactly_once_v2: registers the producer's transaction metrics. */
  transactional(): void {
    const tags = { "client-id": this.producerClientId };
    const group = "producer-metrics";
    const latency = { count: 0, sum: 0, max: 0 };
    this.transactionMetrics = {
      initNs: this.registry.counter(group, "txn-init-time-ns-total", "Total time initTransactions blocked, ns", tags),
      sendOffsetsNs: this.registry.counter(group, "txn-send-offsets-time-ns-total", "Total time sendOffsetsToTransaction blocked, ns", tags),
      commitNs: this.registry.counter(group, "txn-commit-time-ns-total", "Total time commitTransaction blocked, ns", tags),
      abortNs: this.registry.counter(group, "txn-abort-time-ns-total", "Total time abortTransaction blocked, ns", tags),
      commits: this.registry.rateAndTotal(group, "txn-commit", "Transactions committed", tags),
      aborts: this.registry.rateAndTotal(group, "txn-abort", "Transactions aborted", tags),
      latency,
    };
    this.registry.gauge(group, "txn-latency-avg", "Average time from a transaction's first write to its commit, ms", tags, () => (latency.count === 0 ? 0 : latency.sum / latency.count));
    this.registry.gauge(group, "txn-latency-max", "Longest time from a transaction's first write to its commit, ms", tags, () => latency.max);
  }

  transactionsInitialized(ns: number): void {
    this.transactionMetrics?.initNs.add(ns);
  }

  transactionCommitted(times: TransactionTimes): void {
    const metrics = this.transactionMetrics;
    if (metrics === undefined) return;
    metrics.commits.record();
    metrics.sendOffsetsNs.add(times.sendOffsetsNs);
    metrics.commitNs.add(times.commitNs);
    metrics.latency.count++;
    metrics.latency.sum += times.openMs;
    metrics.latency.max = Math.max(metrics.latency.max, times.openMs);
  }

  transactionAborted(ns: number): void {
    this.transactionMetrics?.aborts.record();
    this.transactionMetrics?.abortNs.add(ns);
  }

  /** Registers a task's metrics the first time it is seen; `dropped` reads its counter. */
  task(taskId: string, dropped: () => number): void {
    if (this.tasks.has(taskId)) return;
    const tags = { "thread-id": this.threadTags["thread-id"], "task-id": taskId };
    const processed = this.registry.rate("stream-task-metrics", "process-rate", "Records processed per second by the task", tags);
    this.registry.gauge("stream-task-metrics", "dropped-records-total", "Records the task dropped (errors skipped, late or keyless records)", tags, dropped);
    this.tasks.set(taskId, { processed, dropped });
  }

  /** The StreamsMetrics of a task's processors, their sensors' metrics tagged with the thread and the task. */
  processorMetrics(taskId: string, level: RecordingLevel): StreamsMetrics {
    return streamsMetrics(this.registry, level, { "thread-id": this.threadTags["thread-id"], "task-id": taskId });
  }

  taskRemoved(taskId: string): void {
    this.tasks.delete(taskId);
    // The thread's own metrics of the task: the task may be open on another thread of the instance by now.
    this.registry.removeTagged({ ...this.threadTags, "task-id": taskId });
  }

  /** Forgets every metric of the thread and its clients (a thread removed from a running instance). */
  removed(): void {
    this.registry.removeTagged(this.threadTags);
    this.registry.removeTagged({ "client-id": this.consumerClientId });
    this.registry.removeTagged({ "client-id": this.producerClientId });
  }

  consumed(taskId: string, records: number, bytes: number): void {
    this.processed.record(records);
    this.consumedRecords.record(records);
    this.consumedBytes.add(bytes);
    this.tasks.get(taskId)?.processed.record(records);
  }

  poll(): void {
    this.polls.record();
  }

  commit(): void {
    this.commits.record();
  }

  storeCommit(ms: number): void {
    for (const { gets, puts } of this.stores.values()) {
      gets.settle();
      puts.settle();
    }
    this.commitLatency.count++;
    this.commitLatency.sum += ms;
    this.commitLatency.max = Math.max(this.commitLatency.max, ms);
  }

  lag(offsetLag: number): void {
    if (Number.isFinite(offsetLag)) this.lagMax = offsetLag;
  }

  sent(records: number): void {
    this.sentRecords.record(records);
  }

  private store(name: string): StoreMetrics {
    if (this.lastStore?.name === name) return this.lastStore;
    let store = this.stores.get(name);
    if (!store) {
      const tags = { "thread-id": this.threadTags["thread-id"], "store-name": name };
      const group = "stream-state-metrics";
      store = {
        name,
        puts: this.registry.rate(group, "put-rate", "Store writes per second", tags),
        gets: this.registry.rate(group, "get-rate", "Store reads per second", tags),
        restored: this.registry.counter(group, "restore-total", "Records restored from the changelog", tags),
      };
      this.stores.set(name, store);
    }
    this.lastStore = store;
    return store;
  }

  storeCounters() {
    // Tallied per read and write, settled at each commit: processors use stores while a batch runs, which ends with one.
    return { read: (name: string) => this.store(name).gets.tally(), write: (name: string) => this.store(name).puts.tally() };
  }

  restored(store: string, records: number): void {
    this.store(store).restored.add(records);
  }
}
