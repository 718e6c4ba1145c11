/**
 * Groups the records of one flush by topic-partition for the producer. Every record gets its partition here
 * (the key's murmur2 partition, the same as engine/key-partitioner's, round-robin for null keys), and a
 * repartition record its origin header.
 * Each partition's records keep the order they were emitted in.
 */
import { partitionOfKey, type PartitionRecords, type ProducerRecord } from "../../kafka-client";
import type { OutputRecord } from "../engine/stream-task";
import { ORIGIN_HEADER } from "./repartition-origin";

/** What the builder groups: the records a polled batch outputs. */
export type OutgoingRecord = OutputRecord;

interface TopicRecords {
  count: number;
  /** By partition index; holes for partitions without records. */
  partitions: (PartitionRecords & { records: ProducerRecord[] })[];
}

export class ProduceRequestBuilder {
  private readonly roundRobin = new Map<string, number>();

  /** `partitionCount` knows every topic written to; unknown topics get partition 0. */
  constructor(private readonly partitionCount: (topic: string) => number | undefined) {}

  /** The records by topic-partition, topics in order of first appearance, partitions ascending. */
  build(records: Iterable<OutgoingRecord>): PartitionRecords[] {
    const topics = new Map<string, TopicRecords>();
    for (const record of records) {
      let topic = topics.get(record.topic);
      if (topic === undefined) {
        topic = { count: this.partitionCount(record.topic) ?? 1, partitions: [] };
        topics.set(record.topic, topic);
      }
      const partition = record.partition ?? this.partitionOf(record.topic, record.key, topic.count);
      let target = topic.partitions[partition];
      if (target === undefined) {
        target = { topic: record.topic, partition, records: [] };
        topic.partitions[partition] = target;
      }
      // An output record is a producer record already; only a repartition record needs one of its own.
      target.records.push(
        record.origin === undefined
          ? record
          : { key: record.key, value: record.value, timestamp: record.timestamp, headers: { [ORIGIN_HEADER]: record.origin } },
      );
    }
    const grouped: PartitionRecords[] = [];
    for (const topic of topics.values()) {
      for (const partition of topic.partitions) if (partition !== undefined) grouped.push(partition);
    }
    return grouped;
  }

  private partitionOf(topic: string, key: Buffer | null, count: number): number {
    if (key !== null) return partitionOfKey(key, count);
    const next = (this.roundRobin.get(topic) ?? -1) + 1;
    this.roundRobin.set(topic, next);
    return next % count;
  }
}
