/**
 * One topic's single partition used as a log (KAFKA_TOPIC_LOGS): read to its end on demand and appended to, with
 * Sluice's client. Connections open on first use and stay until `close`; nothing polls between calls, so a log
 * nobody reads costs nothing. The admin client is needed once, to find or create the topic.
 */
import type { LogRecord, TopicLog, TopicLogOptions } from "../../kernel/contracts/kafka-topic-log";
import { ClusterAdmin } from "./cluster-admin";
import type { KafkaEndpoint } from "./kafka-endpoint";
import { PartitionFetcher } from "./partition-fetcher";
import { RecordProducer } from "./record-producer";

const PARTITION = 0;
/** How long one readToEnd may take before it gives up. */
const READ_TIMEOUT_MS = 30_000;

export class PartitionLog implements TopicLog {
  private fetcher: PartitionFetcher | undefined;
  private producer: Promise<RecordProducer> | undefined;
  /** Settled once the topic is known to exist and the fetcher knows its leader. */
  private found: Promise<void> | undefined;

  /** `endpoint` is asked on first use: an embedded broker's address is known only once it has started. */
  constructor(private readonly endpoint: () => KafkaEndpoint, private readonly topic: string, private readonly options: TopicLogOptions) {}

  async readToEnd(from: number, each: (record: LogRecord) => void): Promise<number> {
    const fetcher = await this.openFetcher();
    const [{ offset: end }] = await fetcher.latestOffsets({ [this.topic]: [PARTITION] });
    const deadline = Date.now() + READ_TIMEOUT_MS;
    let next = from;
    while (next < end) {
      if (Date.now() > deadline) throw new Error(`reading topic ${this.topic} from offset ${next} to ${end} took over ${READ_TIMEOUT_MS} ms`);
      const answer = await fetcher.fetch([{ topic: this.topic, partition: PARTITION, offset: next }]);
      // Out of range (a log start past `next`) restarts at the log start; a moved leader is fetched again.
      for (const reset of await fetcher.recover(answer.errors, `reading topic ${this.topic}`)) next = reset.offset;
      for (const { records, nextOffset } of answer.batches) {
        for (let record = records.read(); record !== undefined; record = records.read()) {
          if (record.offset < next) continue;
          each({ offset: record.offset, key: copy(record.key), value: copy(record.value) });
        }
        next = Math.max(next, nextOffset);
      }
    }
    return next;
  }

  async append(key: Buffer | string, value: Buffer | string | null): Promise<number> {
    this.producer ??= this.openProducer();
    const producer = await this.producer;
    const [written] = await producer.send([{ topic: this.topic, partition: PARTITION, records: [{ key, value, timestamp: Date.now() }] }]);
    return written.baseOffset;
  }

  async close(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    this.found = undefined;
    this.fetcher?.close();
    this.fetcher = undefined;
    await producer?.then((opened) => opened.close(), () => undefined);
  }

  private async openFetcher(): Promise<PartitionFetcher> {
    this.found ??= this.findTopic().catch((error: unknown) => {
      this.found = undefined;
      throw error;
    });
    await this.found;
    return this.fetcher!;
  }

  private async findTopic(): Promise<void> {
    const endpoint = this.endpoint();
    const admin = new ClusterAdmin({ ...endpoint, clientId: this.options.clientId });
    try {
      if ((await admin.offsetsOf(this.topic)).size === 0) {
        await admin.createTopics([{ name: this.topic, partitions: 1, replicationFactor: -1, configs: this.options.configs }]);
      }
    } finally {
      admin.close();
    }
    this.fetcher ??= new PartitionFetcher({ ...endpoint, clientId: this.options.clientId, maxWaitMs: 100 });
    await this.fetcher.metadata.refresh([this.topic]);
  }

  private async openProducer(): Promise<RecordProducer> {
    await this.openFetcher();
    const producer = new RecordProducer({ ...this.endpoint(), clientId: this.options.clientId });
    try {
      await producer.connect();
      return producer;
    } catch (error) {
      this.producer = undefined;
      await producer.close();
      throw error;
    }
  }
}

/** A record's bytes as its own Buffer: the fetched ones are views into the whole answer. */
const copy = (bytes: Buffer | null) => (bytes === null ? null : Buffer.from(bytes));
