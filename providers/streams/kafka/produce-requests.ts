/**
 * Cuts the records of one flush into kafkajs produce requests. kafkajs groups a request's messages per
 * partition by copying the partition's list once per message (quadratic in the messages of one partition)
 * and encodes each record into a fresh 512-byte buffer, so a request holds at most `perPartition` messages
 * of any one partition and `perRequest` in all. Every record gets its partition here (the key's murmur2
 * partition, round-robin for null keys), so the cut is exact and the partitioner has nothing to compute.
 * Requests are meant to be sent one after the other: each partition's records keep their order.
 */
import type { Message, TopicMessages } from "kafkajs";
import { partitionForKey } from "../engine/key-partitioner";
import { ORIGIN_HEADER } from "./repartition-origin";
import type { OutputRecord } from "../engine/stream-task";

/** What the builder cuts into requests: the records a polled batch outputs. */
export type OutgoingRecord = OutputRecord;

export interface RequestLimits {
  perPartition: number;
  perRequest: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = { perPartition: 250, perRequest: 4_000 };

/** One partition's share of a request: where its records landed is `baseOffset` … `baseOffset + count - 1`. */
export interface PartitionSlice {
  topic: string;
  partition: number;
  count: number;
}

export interface ProduceRequest {
  topicMessages: TopicMessages[];
  slices: PartitionSlice[];
}

interface PartitionQueue {
  topic: string;
  partition: number;
  messages: Message[];
  next: number;
}

export class ProduceRequestBuilder {
  private readonly roundRobin = new Map<string, number>();

  /** `partitionCount` knows every topic written to; unknown topics get partition 0. */
  constructor(
    private readonly partitionCount: (topic: string) => number | undefined,
    private readonly limits: RequestLimits = DEFAULT_REQUEST_LIMITS,
  ) {}

  build(records: Iterable<OutgoingRecord>): ProduceRequest[] {
    const queues = new Map<string, PartitionQueue>();
    for (const record of records) {
      const partition = record.partition ?? this.partitionOf(record.topic, record.key);
      const id = `${record.topic}\u0000${partition}`;
      let queue = queues.get(id);
      if (!queue) {
        queue = { topic: record.topic, partition, messages: [], next: 0 };
        queues.set(id, queue);
      }
      const headers = record.origin === undefined ? undefined : { [ORIGIN_HEADER]: record.origin };
      queue.messages.push({ key: record.key, value: record.value, partition, timestamp: String(record.timestamp), headers });
    }
    const requests: ProduceRequest[] = [];
    let open = [...queues.values()];
    while (open.length > 0) {
      const byTopic = new Map<string, Message[]>();
      const slices: PartitionSlice[] = [];
      let room = this.limits.perRequest;
      for (const queue of open) {
        if (room === 0) break;
        const take = Math.min(this.limits.perPartition, room, queue.messages.length - queue.next);
        const slice = queue.messages.slice(queue.next, queue.next + take);
        queue.next += take;
        room -= take;
        slices.push({ topic: queue.topic, partition: queue.partition, count: take });
        const list = byTopic.get(queue.topic);
        if (list) for (const message of slice) list.push(message);
        else byTopic.set(queue.topic, slice);
      }
      requests.push({ topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })), slices });
      open = open.filter((queue) => queue.next < queue.messages.length);
    }
    return requests;
  }

  private partitionOf(topic: string, key: Buffer | null): number {
    const count = this.partitionCount(topic) ?? 1;
    if (key !== null) return partitionForKey(topic, key, count);
    const next = (this.roundRobin.get(topic) ?? -1) + 1;
    this.roundRobin.set(topic, next);
    return next % count;
  }
}
