/**
 * Keeps an instance's global stores (Kafka Streams' GlobalStreamThread): a reader of every partition of every global
 * topic, outside the consumer group. `start` reads each partition from its start up to the end it had when the
 * start began (the bootstrap), so that the stream thread's tasks, which start only then, see the whole table; after
 * that it goes on reading in the background until stopped. Nothing is checkpointed: the stores are in memory and
 * each run reads their topics again from the start, as Kafka Streams restores an in-memory global store.
 */
import { PartitionFetcher, type ClusterAdmin, type IsolationLevel, type KafkaEndpoint, type TopicPartitionOffset } from "../../../kafka-client";
import type { ComponentLogger } from "../../../../kernel/logger";
import type { GlobalStores } from "../../state/global-store";
import { GlobalStoreUpdates, type GlobalProcessingEnvironment } from "../../engine/global-store-updates";
import { TopicPartitionMap } from "../topics/topic-partition";

export interface GlobalStreamThreadOptions {
  endpoint: KafkaEndpoint;
  clientId: string;
  stores: GlobalStores;
  /** What the processors of stores added with addGlobalStore get from their context. */
  processing: GlobalProcessingEnvironment;
  /** read_committed under exactly_once_v2, as Kafka Streams' global consumer reads then. */
  isolationLevel: IsolationLevel;
  logger: ComponentLogger;
  /** A failure while running (after the bootstrap): the application fails, as Kafka Streams' does when its global thread dies. */
  onFatal(error: unknown): void;
}

/** How long a fetch may wait for records: also how long a stop may wait for the fetch in flight. */
const MAX_WAIT_MS = 200;

export class GlobalStreamThread {
  private fetcher?: PartitionFetcher;
  private updates?: GlobalStoreUpdates;
  private readonly positions = new TopicPartitionMap<number>();
  private stopped = false;
  private running?: Promise<void>;
  /** Records applied since the start, for the log. */
  private applied = 0;

  constructor(private readonly options: GlobalStreamThreadOptions) {}

  /** Reads every global topic up to its end, then keeps reading in the background. */
  async start(admin: ClusterAdmin): Promise<void> {
    const { stores, endpoint, clientId, isolationLevel, logger, processing } = this.options;
    const topics = stores.topics;
    const counts = await admin.partitionCounts(topics);
    const missing = topics.filter((topic) => !counts.has(topic));
    if (missing.length > 0) throw new Error(`the topic of a global table does not exist: ${missing.join(", ")} (create it before starting the application)`);
    const partitions = Object.fromEntries(topics.map((topic) => [topic, Array.from({ length: counts.get(topic)! }, (_, partition) => partition)]));
    const fetcher = new PartitionFetcher({ ...endpoint, clientId, maxWaitMs: MAX_WAIT_MS, isolationLevel, logger });
    this.fetcher = fetcher;
    await fetcher.metadata.refresh(topics);
    for (const topic of topics) await stores.ofTopic(topic)!.prepare();
    for (const { topic, partition, offset } of await fetcher.earliestOffsets(partitions)) this.positions.set(topic, partition, offset);
    const ends = await fetcher.latestOffsets(partitions);
    const startedAt = Date.now();
    this.updates = new GlobalStoreUpdates(stores, processing);
    while (!this.stopped && ends.some(({ topic, partition, offset }) => this.positions.get(topic, partition)! < offset)) await this.fetchOnce(true);
    logger.info("global stores restored", { stores: topics.map((topic) => stores.ofTopic(topic)!.name), records: this.applied, ms: Date.now() - startedAt });
    this.running = this.keepReading();
  }

  /** Whether the bootstrap is done: the stores then hold their topics as they were when the run started, at least. */
  get caughtUp(): boolean {
    return this.running !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    this.fetcher?.close();
    this.updates?.close();
  }

  private async keepReading(): Promise<void> {
    try {
      while (!this.stopped) await this.fetchOnce(false);
    } catch (error) {
      if (!this.stopped) this.options.onFatal(error);
    }
  }

  /** One fetch of every partition from its position; each record goes into its topic's store. `restoring`: during the bootstrap. */
  private async fetchOnce(restoring: boolean): Promise<void> {
    const fetcher = this.fetcher!;
    const asked: TopicPartitionOffset[] = [...this.positions.entries()].map(([{ topic, partition }, offset]) => ({ topic, partition, offset }));
    const answer = await fetcher.fetch(asked);
    // A position out of range (the log's head deleted by retention) starts again from the log's start.
    for (const { topic, partition, offset } of await fetcher.recover(answer.errors, "reading the global topic")) this.positions.set(topic, partition, offset);
    for (const batch of answer.batches) {
      const from = this.positions.get(batch.topic, batch.partition)!;
      for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) {
        if (record.offset < from) continue;
        const read = { topic: batch.topic, partition: batch.partition, offset: record.offset, key: record.key, value: record.value, timestamp: record.timestamp, headers: record };
        const ready = this.updates!.prepare(read);
        if (ready !== undefined) await ready;
        this.updates!.update(read, restoring);
        this.applied++;
      }
      if (batch.nextOffset > from) this.positions.set(batch.topic, batch.partition, batch.nextOffset);
    }
  }
}
