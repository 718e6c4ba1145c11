/**
 * Groups the records of one flush by topic-partition for the producer. Every record gets its partition here
 * (the key's murmur2 partition, round-robin for null keys), and a commit marker its positions header.
 * Each partition's records keep the order they were emitted in.
 */
import { partitionOfKey, type PartitionRecords, type ProducerRecord } from "../../kafka-client";
import type { OutputRecord } from "../engine/stream-task";
import { POSITIONS_HEADER } from "./commit-marker";

/** What the builder groups: the records a polled batch outputs. */
export type OutgoingRecord = OutputRecord;

interface TopicRecords {
  name: string;
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
    // Records of one topic mostly come in runs: keeping the current topic's entry saves a lookup per record.
    let topic: TopicRecords = { name: "", count: 0, partitions: [] };
    for (const record of records) {
      if (record.topic !== topic.name) topic = this.entryOf(topics, record.topic);
      const partition = record.partition ?? this.partitionOf(record.topic, record.key, topic.count);
      let target = topic.partitions[partition];
      if (target === undefined) {
        target = { topic: record.topic, partition, records: [] };
        topic.partitions[partition] = target;
      }
      // An output record (a dead letter with its headers, a repartition record with its origin stamp) is a producer
      // record already; only a commit marker needs one of its own.
      if (record.positions === undefined) target.records.push(record);
      else target.records.push({ key: record.key, value: record.value, timestamp: record.timestamp, headers: { [POSITIONS_HEADER]: record.positions } });
    }
    const grouped: PartitionRecords[] = [];
    for (const topic of topics.values()) {
      for (const partition of topic.partitions) if (partition !== undefined) grouped.push(partition);
    }
    return grouped;
  }

  private entryOf(topics: Map<string, TopicRecords>, name: string): TopicRecords {
    let entry = topics.get(name);
    if (entry === undefined) {
      entry = { name, count: this.partitionCount(name) ?? 1, partitions: [] };
      topics.set(name, entry);
    }
    return entry;
  }

  private partitionOf(topic: string, key: Buffer | string | null, count: number): number {
    if (key !== null) return partitionOfKey(key, count);
    const next = (this.roundRobin.get(topic) ?? -1) + 1;
    this.roundRobin.set(topic, next);
    return next % count;
  }
}
