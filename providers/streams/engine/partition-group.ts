/**
 * The input of a task with several input partitions (Kafka Streams' PartitionGroup, KIP-695): one queue per input
 * partition, whose head is deserialized and timestamped as soon as it is queued, and the record with the smallest
 * head timestamp is processed next, so that the task sees its partitions' records in time order. A partition whose
 * queue is empty holds the task back, as `max.task.idle.ms` says:
 * - `-1`: never; the task processes whatever it has;
 * - `0` (the default): while the partition's lag is unknown (not fetched yet) or more than zero (records are on the
 *   broker, not fetched yet), then no longer;
 * - `> 0`: as with 0, and once the partition is caught up, for that many more milliseconds of wall-clock time.
 * Partition time is the largest timestamp processed from a partition; it is committed with the partition's offset.
 *
 * Tasks with one input partition have no group: their records are processed as they come, in offset order.
 */
import type { StreamsRecord } from "../processor/record";
import type { RangedRecord, RawRecord } from "./stream-task";

/** `max.task.idle.ms` that turns idling off. */
export const MAX_TASK_IDLE_MS_DISABLED = -1;

/** Where a queue reads one batch of its records from, in offset order (a fetched batch, or records piped one by one). */
export interface QueuedRecords {
  read(): RawRecord | RangedRecord | undefined;
}

/** A record taken out of the group: as consumed, and as its source read it (deserialized, timestamped). */
export interface StampedRecord {
  topic: string;
  raw: RawRecord | RangedRecord;
  record: StreamsRecord<unknown, unknown>;
}

/** Reads a consumed record of `topic` as its source does; undefined when the source drops it (a negative timestamp, an error the policy skips). */
export type RecordStamper = (topic: string, raw: RawRecord | RangedRecord) => StreamsRecord<unknown, unknown> | undefined;

/** The records of one input partition not yet processed; the first of them read ahead (its head). */
class RecordQueue {
  private readonly batches: QueuedRecords[] = [];
  private first = 0;
  head: StampedRecord | undefined;
  /** The largest timestamp processed from the partition; -1 before any. */
  partitionTime = -1;
  /** The offset after the last record queued; -1 before any. */
  end = -1;

  constructor(
    readonly topic: string,
    private readonly stamp: RecordStamper,
  ) {}

  get headTimestamp(): number {
    return this.head === undefined ? -1 : this.head.record.timestamp;
  }

  /** The offset of the first record not processed yet (the records read and dropped before it included); -1 before any. */
  get position(): number {
    return this.head === undefined ? this.end : this.head.raw.offset;
  }

  /** Offsets queued and not processed yet (compacted topics have gaps: an upper bound). */
  get buffered(): number {
    return this.head === undefined ? 0 : this.end - this.head.raw.offset;
  }

  add(records: QueuedRecords, nextOffset: number): void {
    this.batches.push(records);
    this.end = nextOffset;
    if (this.head === undefined) this.readHead();
  }

  poll(): StampedRecord {
    const head = this.head!;
    this.head = undefined;
    if (head.record.timestamp > this.partitionTime) this.partitionTime = head.record.timestamp;
    this.readHead();
    return head;
  }

  clear(): void {
    this.batches.length = 0;
    this.first = 0;
    this.head = undefined;
    this.end = -1;
  }

  /** Reads records until one is kept, or none are left. */
  private readHead(): void {
    while (this.head === undefined && this.first < this.batches.length) {
      const raw = this.batches[this.first].read();
      if (raw === undefined) {
        this.batches[this.first++] = EMPTY;
        continue;
      }
      const record = this.stamp(this.topic, raw);
      if (record !== undefined) this.head = { topic: this.topic, raw, record };
    }
    if (this.first === this.batches.length) {
      this.batches.length = 0;
      this.first = 0;
    }
  }
}

const EMPTY: QueuedRecords = { read: () => undefined };

/**
 * A binary heap that orders equal elements as java.util.PriorityQueue does (the same sift steps), so that records of
 * equal timestamps on two partitions are taken in Kafka Streams' order.
 */
class Heap<T> {
  private readonly items: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  offer(item: T): void {
    const items = this.items;
    let k = items.length;
    items.push(item);
    while (k > 0) {
      const parent = (k - 1) >>> 1;
      const above = items[parent];
      if (this.compare(item, above) >= 0) break;
      items[k] = above;
      k = parent;
    }
    items[k] = item;
  }

  poll(): T | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop()!;
    const n = items.length;
    if (n > 0) {
      let k = 0;
      const half = n >>> 1;
      while (k < half) {
        let child = 2 * k + 1;
        let smaller = items[child];
        const right = child + 1;
        if (right < n && this.compare(smaller, items[right]) > 0) smaller = items[(child = right)];
        if (this.compare(last, smaller) <= 0) break;
        items[k] = smaller;
        k = child;
      }
      items[k] = last;
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}

export class PartitionGroup {
  private readonly queues: RecordQueue[];
  private readonly byTopic = new Map<string, RecordQueue>();
  /** The queues that hold records, by head timestamp. */
  private readonly nonEmpty = new Heap<RecordQueue>((a, b) => a.headTimestamp - b.headTimestamp);
  /** Each partition's lag as last fetched (records on the broker past what is queued); absent: unknown. */
  private readonly lags = new Map<RecordQueue, number>();
  /** Until when an empty, caught-up partition is waited for (max.task.idle.ms > 0). */
  private readonly idleDeadlines = new Map<RecordQueue, number>();
  /** How many times the task processed with a partition given up on (Kafka Streams' enforced-processing). */
  enforcedProcessing = 0;

  constructor(
    topics: readonly string[],
    readonly maxTaskIdleMs: number,
    stamp: RecordStamper,
  ) {
    this.queues = topics.map((topic) => new RecordQueue(topic, stamp));
    for (const queue of this.queues) this.byTopic.set(topic(queue), queue);
  }

  /** Queues a batch of `topic`'s records; `nextOffset`: the offset after it. */
  add(topicName: string, records: QueuedRecords, nextOffset: number): void {
    const queue = this.queueOf(topicName);
    const wasEmpty = queue.head === undefined;
    queue.add(records, nextOffset);
    if (wasEmpty && queue.head !== undefined) this.nonEmpty.offer(queue);
  }

  /** The partition's lag as a fetch answered it: records on the broker after the fetched ones. */
  setLag(topicName: string, lag: number): void {
    this.lags.set(this.queueOf(topicName), lag);
  }

  /** Whether records wait in any queue. */
  hasQueued(): boolean {
    return this.nonEmpty.size > 0;
  }

  /** The next record in time order, or undefined when none may be processed now (see readyToProcess). */
  next(wallClockTime: number): StampedRecord | undefined {
    if (this.nonEmpty.size === 0 || !this.readyToProcess(wallClockTime)) return undefined;
    const queue = this.nonEmpty.poll()!;
    const record = queue.poll();
    if (queue.head !== undefined) this.nonEmpty.offer(queue);
    return record;
  }

  /**
   * Kafka Streams' rule: ready when every partition has records; else, with idling on, when every empty partition
   * is known to be caught up and its idle time has passed (then processing is enforced: out of order, perhaps).
   */
  readyToProcess(wallClockTime: number): boolean {
    if (this.maxTaskIdleMs === MAX_TASK_IDLE_MS_DISABLED) return true;
    let queued = false;
    let enforced = false;
    for (const queue of this.queues) {
      if (queue.head !== undefined) {
        this.idleDeadlines.delete(queue);
        queued = true;
        continue;
      }
      const lag = this.lags.get(queue);
      if (lag === undefined || lag > 0) {
        // Not fetched yet, or records known to be on the broker: they come with a later fetch.
        this.idleDeadlines.delete(queue);
        return false;
      }
      let deadline = this.idleDeadlines.get(queue);
      if (deadline === undefined) {
        deadline = wallClockTime + this.maxTaskIdleMs;
        this.idleDeadlines.set(queue, deadline);
      }
      if (wallClockTime < deadline) return false;
      enforced = true;
    }
    if (!enforced) return true;
    if (!queued) return false;
    this.enforcedProcessing++;
    return true;
  }

  /** The partition's time: the largest timestamp processed from it (or restored); -1 before any. */
  partitionTime(topicName: string): number {
    return this.queueOf(topicName).partitionTime;
  }

  /** Restores a partition's time (committed with its offset); never moves it back. */
  setPartitionTime(topicName: string, time: number): void {
    const queue = this.queueOf(topicName);
    if (time > queue.partitionTime) queue.partitionTime = time;
  }

  /** The offset of the partition's first record not processed yet; -1 when nothing was queued since the last clear. */
  position(topicName: string): number {
    return this.queueOf(topicName).position;
  }

  /** Offsets of the partition queued and not processed yet. */
  buffered(topicName: string): number {
    return this.queueOf(topicName).buffered;
  }

  topics(): string[] {
    return this.queues.map(topic);
  }

  /** Forgets every queued record and lag (a rebalance: the consumer fetches again from the committed offsets). */
  clear(): void {
    for (const queue of this.queues) queue.clear();
    this.nonEmpty.clear();
    this.lags.clear();
    this.idleDeadlines.clear();
  }

  private queueOf(topicName: string): RecordQueue {
    const queue = this.byTopic.get(topicName);
    if (queue === undefined) throw new Error(`the task reads no topic '${topicName}'`);
    return queue;
  }
}

function topic(queue: RecordQueue): string {
  return queue.topic;
}
