/**
 * Writes the records of a run's sends into record batches by topic-partition as they are emitted, for the producer.
 * Every record gets its partition here (its sink's StreamPartitioner's choice, which may be several partitions or
 * none; else the murmur2 partition of its key, or of a windowed key's inner key; round-robin for null keys), and a commit marker its positions header. Each
 * partition's records keep the order they were emitted in.
 */
import { partitionOfKey, type PartitionBatches } from "../../../kafka-client";
import { DEFAULT_MAX_BATCH_BYTES, RecordBatchAppender } from "../../../kafka-protocol";
import type { OutputRecord } from "../../engine/stream-task";
import { POSITIONS_HEADER } from "../changelog/commit-marker";

/** What the builder writes: the records a polled batch outputs. */
export type OutgoingRecord = OutputRecord;

interface TopicBatches {
  name: string;
  /** Its partition count, asked on its first record after each take; -1 until then. */
  count: number;
  /** By partition index; holes for partitions never written to. */
  partitions: (RecordBatchAppender | undefined)[];
}

const NO_TOPIC: TopicBatches = { name: "", count: 0, partitions: [] };

export class ProduceRequestBuilder {
  private readonly topics = new Map<string, TopicBatches>();
  private readonly roundRobin = new Map<string, number>();
  /** Records of one topic mostly come in runs: keeping the current topic's entry saves a lookup per record. */
  private current = NO_TOPIC;

  /** `partitionCount` knows every topic written to; unknown topics get partition 0. */
  constructor(
    private readonly partitionCount: (topic: string) => number | undefined,
    private readonly maxBatchBytes = DEFAULT_MAX_BATCH_BYTES,
  ) {}

  add(record: OutgoingRecord): void {
    let topic = this.current;
    if (record.topic !== topic.name) {
      topic = this.entryOf(record.topic);
      this.current = topic;
    }
    if (record.partitioner !== undefined) {
      const chosen = record.partitioner(topic.count);
      if (chosen !== undefined) {
        for (const partition of chosen) this.append(topic, partition, record);
        return;
      }
    }
    this.append(topic, record.partition ?? this.partitionOf(record.topic, record.partitionKey ?? record.key, topic.count), record);
  }

  /** The topics of `records` whose partition count is not known: those a TopicNameExtractor named for the first time. */
  unknownTopics(records: readonly OutgoingRecord[]): Set<string> {
    const unknown = new Set<string>();
    let last: string | undefined;
    for (const { topic } of records) {
      if (topic === last) continue;
      last = topic;
      if (this.partitionCount(topic) === undefined) unknown.add(topic);
    }
    return unknown;
  }

  private append(topic: TopicBatches, partition: number, record: OutgoingRecord): void {
    let appender = topic.partitions[partition];
    if (appender === undefined) {
      appender = new RecordBatchAppender(this.maxBatchBytes);
      topic.partitions[partition] = appender;
    }
    // An output record (a dead letter with its headers, a repartition record with its origin stamp) is a producer
    // record already; only a commit marker needs one of its own.
    if (record.positions === undefined) appender.append(record);
    else appender.append({ key: record.key, value: record.value, timestamp: record.timestamp, headers: { [POSITIONS_HEADER]: record.positions } });
  }

  /**
   * The batches written since the last take, by topic-partition: topics in order of first appearance, partitions
   * ascending. Partition counts are asked again for the next records.
   */
  take(): PartitionBatches[] {
    const taken: PartitionBatches[] = [];
    this.current = NO_TOPIC;
    for (const topic of this.topics.values()) {
      const { name, partitions } = topic;
      topic.count = -1;
      for (let partition = 0; partition < partitions.length; partition++) {
        const appender = partitions[partition];
        if (appender !== undefined && appender.appended > 0) taken.push({ topic: name, partition, batches: appender.take() });
      }
    }
    return taken;
  }

  private entryOf(name: string): TopicBatches {
    let entry = this.topics.get(name);
    if (entry === undefined) {
      entry = { name, count: -1, partitions: [] };
      this.topics.set(name, entry);
    }
    if (entry.count < 0) entry.count = this.partitionCount(name) ?? 1;
    return entry;
  }

  private partitionOf(topic: string, key: Buffer | string | null, count: number): number {
    if (key !== null) return partitionOfKey(key, count);
    const next = (this.roundRobin.get(topic) ?? -1) + 1;
    this.roundRobin.set(topic, next);
    return next % count;
  }
}
