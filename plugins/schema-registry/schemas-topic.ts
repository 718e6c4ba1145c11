/**
 * The registry's log: a compacted single-partition topic (`_schemas`) read from its start, each record handed to
 * `apply` in order. A write is acknowledged by every in-sync replica and then awaited until this instance has read
 * it back, so what a caller is answered is what every instance sharing the topic will see.
 */
import { randomUUID } from "node:crypto";
import { Kafka, logLevel, type Consumer, type Producer } from "kafkajs";

export type ApplyRecord = (key: unknown, value: unknown) => void;

/** How long start waits to have read the topic to its end, and a write to come back. */
const READ_BACK_TIMEOUT_MS = 30_000;

export class SchemasTopic {
  private readonly kafka: Kafka;
  private producer: Producer | undefined;
  private consumer: Consumer | undefined;
  /** The offset after the last record applied. */
  private applied = 0;
  private readonly waiters: { offset: number; resolve: () => void }[] = [];

  constructor(brokers: string[], private readonly topic: string, private readonly apply: ApplyRecord) {
    this.kafka = new Kafka({ clientId: "sluice-schema-registry", brokers, logLevel: logLevel.NOTHING });
  }

  /** Creates the topic when missing, then reads it to its end. */
  async start(): Promise<void> {
    const end = await this.createdTopicEnd();
    this.producer = this.kafka.producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 });
    await this.producer.connect();
    // A group of its own: every instance reads the whole topic, and no offset of it is ever committed.
    this.consumer = this.kafka.consumer({ groupId: `sluice-schema-registry-${randomUUID()}`, maxWaitTimeInMs: 250 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachMessage: async ({ message }) => {
        this.apply(parse(message.key), parse(message.value));
        this.applied = Number(message.offset) + 1;
        this.wake();
      },
    });
    await this.readUpTo(end);
  }

  /** The topic's end offset, the topic created first when missing; the admin client is needed at start only. */
  private async createdTopicEnd(): Promise<number> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      if (!(await admin.listTopics()).includes(this.topic)) {
        await admin.createTopics({ waitForLeaders: true, topics: [{ topic: this.topic, numPartitions: 1, configEntries: [{ name: "cleanup.policy", value: "compact" }] }] });
      }
      const [partition] = await admin.fetchTopicOffsets(this.topic);
      return Number(partition.high);
    } finally {
      await admin.disconnect();
    }
  }

  /** Appends a record and resolves once this instance has applied it. */
  async append(key: unknown, value: unknown): Promise<void> {
    if (this.producer === undefined) throw new Error("The schema registry has not started");
    const [written] = await this.producer.send({ topic: this.topic, acks: -1, messages: [{ key: JSON.stringify(key), value: value === null ? null : JSON.stringify(value) }] });
    await this.readUpTo(Number(written.baseOffset ?? written.offset) + 1);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.consumer?.disconnect(), this.producer?.disconnect()]);
  }

  private readUpTo(offset: number): Promise<void> {
    if (this.applied >= offset) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = { offset, resolve: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`The schema registry did not read ${this.topic} up to offset ${offset} within ${READ_BACK_TIMEOUT_MS} ms`));
      }, READ_BACK_TIMEOUT_MS);
      this.waiters.push(waiter);
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.filter((w) => w.offset <= this.applied)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}

/** A record's key or value as JSON; a record that is not JSON is skipped by `apply` (its key matches nothing). */
function parse(bytes: Buffer | null): unknown {
  if (bytes === null) return null;
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}
