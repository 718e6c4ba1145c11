/**
 * A partition log made of segments: validates and appends batches through a serial, coalescing write queue,
 * checks idempotent producers' sequences and assigns offsets at write time, tracks the transactions written into it
 * (last stable offset, aborted transactions), rolls segments, serves reads of whole batches, and applies retention
 * and DeleteRecords. The bytes live wherever the SegmentStorageFactory puts them
 * (files or memory).
 */
import { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import type { AppendResult, PartitionLog, TimestampLookup, TopicSettings } from "./log-store";
import { BatchField, encodeBaseOffset, isControlBatch, isTransactionalBatch, validateBatch } from "../../kafka-protocol/records/record-batch";
import { controlRecordType } from "../../kafka-protocol/records/control-batch";
import { PartitionTransactions, type AbortedTransaction } from "./partition-transactions";
import { BatchIndex } from "./batch-index";
import type { LogStartCheckpoint } from "./log-start-checkpoint";
import { ProducerStates, type ProducerBatch } from "./producer-states";
import type { ReadAhead } from "./read-ahead";
import type { ReadBuffers } from "./read-buffers";
import { Segment, type BatchRange } from "./segment";
import type { SegmentStorageFactory } from "./segment-storage";
import { SerialWriteQueue, type WriteOutcome } from "./serial-write-queue";
import type { ComponentLogger } from "../../../kernel/logger";
interface ValidBatch extends ProducerBatch {
  bytes: ChunkedBytes;
  maxTimestamp: number;
  /** For a control batch, its record's type. */
  controlType?: number;
}

/** How long a producer id that writes nothing is remembered: Kafka's producer.id.expiration.ms default, a day. */
const PRODUCER_ID_EXPIRATION_MS = 24 * 60 * 60 * 1000;

/** One appendAll call: its batches land contiguously in one segment. */
interface PendingAppend {
  batches: ValidBatch[];
  size: number;
}

export interface PartitionLogContext {
  segmentBytes: number;
  /**
   * The active segment is synced (fsync) once this many records were written to it and not synced, before the
   * appends that reached the count are answered (Kafka's log.flush.interval.messages); null: never, the OS writes back.
   */
  flushMessages: number | null;
  storageFactory: SegmentStorageFactory;
  logStartCheckpoint: LogStartCheckpoint;
  logger: ComponentLogger;
  /** Reads the batches after each read ahead of time (file storage). */
  readAhead?: ReadAhead;
  /** Where reads take the memory they fill (file storage). */
  readBuffers?: ReadBuffers;
  /** Called after batches were written. */
  onAppended(topic: string, partition: number): void;
}

type LogState = "open" | "closed" | "deleted";

export class SegmentedPartitionLog implements PartitionLog {
  private readonly queue = new SerialWriteQueue<PendingAppend, AppendResult>((items) => this.write(items));
  private state: LogState = "open";
  /** Records written since the last sync (counted only while flushMessages is set). */
  private unsyncedRecords = 0;

  /**
   * `segments` must be non-empty, ordered by base offset; the last one is the active segment. `startOffset`: where
   * DeleteRecords last moved the log start, which counts once it is past the first segment's base offset.
   */
  constructor(
    readonly topic: string,
    readonly partition: number,
    private readonly settings: TopicSettings,
    private readonly segments: Segment[],
    private readonly context: PartitionLogContext,
    private startOffset = 0,
    /** Rebuilt from the segments by whoever read them; empty for a new log. */
    private readonly producers = new ProducerStates(),
    private readonly transactions = new PartitionTransactions(),
  ) {
    if (segments.length === 0) throw new Error(`partition ${topic}-${partition} needs at least one segment`);
  }

  static async create(
    topic: string,
    partition: number,
    settings: TopicSettings,
    context: PartitionLogContext,
  ): Promise<SegmentedPartitionLog> {
    const storage = await context.storageFactory.create(0);
    return new SegmentedPartitionLog(topic, partition, settings, [new Segment(0, storage, new BatchIndex(), 0, Date.now())], context);
  }

  logStartOffset(): bigint {
    return BigInt(Math.max(this.startOffset, this.segments[0].baseOffset));
  }

  logEndOffset(): bigint {
    return BigInt(this.activeSegment().endOffset());
  }

  lastStableOffset(): bigint {
    return BigInt(this.transactions.firstUnstableOffset() ?? this.activeSegment().endOffset());
  }

  abortedTransactions(from: bigint, to: bigint): AbortedTransaction[] {
    return this.transactions.abortedBetween(Number(from), Number(to));
  }

  hasOpenTransaction(producerId: bigint): boolean {
    return this.transactions.isOpen(producerId);
  }

  sizeInBytes(): number {
    return this.segments.reduce((total, segment) => total + segment.size, 0);
  }

  append(batch: Buffer): Promise<AppendResult> {
    return this.appendAll([ChunkedBytes.of(batch)]);
  }

  async appendAll(batches: ChunkedBytes[]): Promise<AppendResult> {
    this.assertOpen();
    if (batches.length === 0) throw new ApiError(ErrorCode.CORRUPT_MESSAGE, "no record batch to append");
    const valid = batches.map((bytes): ValidBatch => {
      const header = validateBatch(bytes);
      return {
        bytes,
        attributes: header.attributes,
        controlType: isControlBatch(header) ? controlRecordType(bytes.toBuffer()) : undefined,
        lastOffsetDelta: header.lastOffsetDelta,
        maxTimestamp: Number(header.maxTimestamp),
        producerId: header.producerId,
        producerEpoch: header.producerEpoch,
        baseSequence: header.baseSequence,
      };
    });
    return this.queue.push({ batches: valid, size: valid.reduce((total, batch) => total + batch.bytes.length, 0) });
  }

  async read(offset: bigint, maxBytes: number, maxOffset?: bigint): Promise<ChunkedBytes> {
    this.assertOpen();
    const start = this.logStartOffset();
    const end = this.logEndOffset();
    if (offset < start || offset > end) {
      throw new ApiError(ErrorCode.OFFSET_OUT_OF_RANGE, `offset ${offset} is outside [${start}, ${end}] of ${this.name()}`);
    }
    const target = Number(offset);
    const bound = maxOffset === undefined ? Number.POSITIVE_INFINITY : Number(maxOffset);
    for (let s = this.segmentIndexFor(target); s < this.segments.length; s++) {
      const segment = this.segments[s];
      const first = segment.index.findByOffset(target);
      if (first < 0) continue;
      if (segment.index.baseOffset(first) >= bound) return ChunkedBytes.EMPTY;
      const range = segment.batchRange(first, maxBytes, bound);
      const readAhead = this.context.readAhead;
      // Found before the read: retention may remove segments while it is under way.
      const after = readAhead ? this.rangeAfter(s, range.last, maxBytes) : undefined;
      try {
        const bytes = (await readAhead?.take(segment.storage, range.position, range.length)) ?? (await segment.storage.read(range.position, range.length, this.context.readBuffers));
        if (readAhead && after && this.state === "open" && !after.segment.removed) readAhead.start(after.segment.storage, after.range.position, after.range.length, Date.now());
        return bytes;
      } catch (error) {
        if (segment.removed) {
          throw new ApiError(ErrorCode.OFFSET_OUT_OF_RANGE, `offset ${offset} of ${this.name()} was just deleted by retention`);
        }
        throw error;
      }
    }
    return ChunkedBytes.EMPTY;
  }

  /** What a consumer that read up to batch `last` of segment `s` fetches next, with the same `maxBytes`. */
  private rangeAfter(s: number, last: number, maxBytes: number): { segment: Segment; range: BatchRange } | undefined {
    const segment = this.segments[s];
    const [next, first] = last + 1 < segment.index.count ? [segment, last + 1] : [this.segments[s + 1], 0];
    if (next === undefined || next.index.count === 0) return undefined;
    return { segment: next, range: next.batchRange(first, maxBytes) };
  }

  /**
   * Kafka's answer: the first record at or after the log start whose own timestamp is at least `timestamp`. The index
   * finds the first batch that can hold it; its records (and, if none qualifies, those of the batches after it) are
   * read to find the record.
   */
  async offsetForTimestamp(timestamp: bigint): Promise<TimestampLookup | null> {
    this.assertOpen();
    const target = Number(timestamp);
    const start = Number(this.logStartOffset());
    for (let s = 0; s < this.segments.length; s++) {
      const segment = this.segments[s];
      // Both searches are monotonic over the batches, so the first batch meeting both is the later of their answers.
      const byTimestamp = segment.index.findByTimestamp(target);
      const byStart = segment.index.findByOffset(start);
      if (byTimestamp < 0 || byStart < 0) continue;
      return this.firstRecordAtOrAfter(target, start, s, Math.max(byTimestamp, byStart));
    }
    return null;
  }

  /** Kafka's MAX_TIMESTAMP lookup: the first batch with the largest timestamp is found by the index, then the record in it. */
  async recordWithMaxTimestamp(): Promise<TimestampLookup | null> {
    this.assertOpen();
    const largest = Math.max(...this.segments.map((segment) => segment.index.largestTimestamp()));
    if (largest < 0) return null;
    const s = this.segments.findIndex((segment) => segment.index.largestTimestamp() === largest);
    return this.firstRecordAtOrAfter(largest, Number(this.logStartOffset()), s, this.segments[s].index.findByTimestamp(largest));
  }

  /** Reads the batches from batch `first` of segment `s` on, up to the first record stamped `target` or later. */
  private async firstRecordAtOrAfter(target: number, start: number, s: number, first: number): Promise<TimestampLookup | null> {
    // The decoder brings the compression codecs, which the broker loads only when a lookup by time needs them.
    const { FetchedRecords } = await import("../../kafka-protocol/records/record-batch-decoder");
    await (await import("../../kafka-protocol/records/compression-codecs")).codecsReady();
    for (let i = first; s < this.segments.length; s++, i = 0) {
      const segment = this.segments[s];
      for (; i < segment.index.count; i++) {
        const position = segment.index.position(i);
        const bytes = await segment.storage.read(position, segment.batchEnd(i) - position);
        const records = new FetchedRecords(bytes.toBuffer(), start, this.name());
        for (let record = records.read(); record !== undefined; record = records.read()) {
          if (record.timestamp >= target) return { offset: BigInt(record.offset), timestamp: BigInt(record.timestamp) };
        }
      }
    }
    return null;
  }

  deleteRecordsBefore(offset: bigint): Promise<bigint> {
    this.assertOpen();
    return this.queue.exclusive(async () => {
      this.assertOpen();
      const end = this.logEndOffset();
      if (offset < 0n || offset > end) {
        throw new ApiError(ErrorCode.OFFSET_OUT_OF_RANGE, `cannot delete the records before offset ${offset}: ${this.name()} ends at ${end}`);
      }
      if (offset > this.logStartOffset()) {
        await this.context.logStartCheckpoint.save(Number(offset));
        this.startOffset = Number(offset);
        // The active segment stays, as in Kafka: reads below the start are refused, and retention removes it once rolled.
        while (this.segments.length > 1 && this.segments[1].baseOffset <= this.startOffset) await this.deleteOldestSegment("records deleted");
        this.producers.forgetBefore(this.startOffset);
        this.transactions.forgetBefore(this.startOffset);
      }
      return this.logStartOffset();
    });
  }

  /** Deletes leading segments past retention; waits for in-flight writes first. */
  enforceRetention(nowMs: number): Promise<void> {
    return this.queue.exclusive(async () => {
      if (this.state !== "open") return;
      await this.deleteExpiredSegments(nowMs);
      await this.deleteSegmentsOverSize();
      this.producers.forgetBefore(Number(this.logStartOffset()));
      this.producers.expire(nowMs, PRODUCER_ID_EXPIRATION_MS);
      this.transactions.forgetBefore(Number(this.logStartOffset()));
    });
  }

  /** Finishes queued writes, then closes the segments; later calls reject. */
  close(): Promise<void> {
    return this.shutDown("closed", (segment) => segment.storage.close());
  }

  /** Finishes queued writes, then deletes every segment; later calls reject as an unknown partition. */
  delete(): Promise<void> {
    return this.shutDown("deleted", (segment) => segment.remove());
  }

  private async shutDown(state: LogState, release: (segment: Segment) => Promise<void>): Promise<void> {
    if (this.state !== "open") return;
    this.state = state;
    await this.queue.exclusive(async () => {
      for (const segment of this.segments) await release(segment);
    });
  }

  private async deleteExpiredSegments(nowMs: number): Promise<void> {
    const retentionMs = this.settings.retentionMs;
    if (retentionMs === null) return;
    const expired = (segment: Segment) => segment.index.count > 0 && segment.retentionTimestamp() < nowMs - retentionMs;
    while (expired(this.segments[0])) {
      // An expired active segment is replaced by an empty one first, so the log keeps its end offset.
      if (this.segments.length === 1) await this.roll();
      await this.deleteOldestSegment("time");
    }
  }

  private async deleteSegmentsOverSize(): Promise<void> {
    const retentionBytes = this.settings.retentionBytes;
    if (retentionBytes === null) return;
    while (this.segments.length > 1 && this.sizeInBytes() > retentionBytes) await this.deleteOldestSegment("size");
  }

  private async deleteOldestSegment(reason: string): Promise<void> {
    const [oldest] = this.segments.splice(0, 1);
    this.context.logger.debug("deleting log segment", {
      topic: this.topic,
      partition: this.partition,
      baseOffset: oldest.baseOffset,
      bytes: oldest.size,
      reason,
    });
    await oldest.remove();
  }

  private async write(items: PendingAppend[]): Promise<WriteOutcome<AppendResult>[]> {
    const outcomes: WriteOutcome<AppendResult>[] = [];
    try {
      while (outcomes.length < items.length) {
        const group = await this.takeGroupForActiveSegment(items, outcomes.length);
        outcomes.push(...(await this.writeGroup(group)));
      }
      this.context.onAppended(this.topic, this.partition);
    } catch (error) {
      while (outcomes.length < items.length) outcomes.push({ ok: false, error });
      if (outcomes.some((outcome) => outcome.ok)) this.context.onAppended(this.topic, this.partition);
    }
    return outcomes;
  }

  /** The appends from `from` on that fit into the active segment (rolling it first if even the first does not). */
  private async takeGroupForActiveSegment(items: PendingAppend[], from: number): Promise<PendingAppend[]> {
    const limit = this.context.segmentBytes;
    if (this.activeSegment().size > 0 && this.activeSegment().size + items[from].size > limit) await this.roll();
    let bytes = this.activeSegment().size + items[from].size;
    let to = from + 1;
    while (to < items.length && bytes + items[to].size <= limit) bytes += items[to++].size;
    return items.slice(from, to);
  }

  /**
   * Writes the group's appends in one go, each after its producers' checks: an append they refuse fails alone, and
   * a batch they find already written is answered with its offset then instead of being written again.
   */
  private async writeGroup(group: PendingAppend[]): Promise<WriteOutcome<AppendResult>[]> {
    const segment = this.activeSegment();
    const chunks: Buffer[] = [];
    const placed: { offset: number; position: number; batch: ValidBatch }[] = [];
    const baseOffsets: (number | Error)[] = [];
    const producers = this.producers.begin();
    let offset = segment.endOffset();
    let position = segment.size;
    for (const append of group) {
      let verdicts: (number | null)[] | null;
      try {
        verdicts = producers.admit(append.batches, offset);
      } catch (error) {
        baseOffsets.push(error as Error);
        continue;
      }
      let appendOffset: number | undefined;
      append.batches.forEach((batch, i) => {
        const writtenAt = verdicts?.[i] ?? null;
        appendOffset ??= writtenAt ?? offset;
        if (writtenAt !== null) return;
        // The caller's buffer is not patched: a fresh base offset field goes in front of the rest of it.
        chunks.push(encodeBaseOffset(BigInt(offset)), ...batch.bytes.slice(BatchField.batchLength).chunks);
        placed.push({ offset, position, batch });
        offset += batch.lastOffsetDelta + 1;
        position += batch.bytes.length;
      });
      baseOffsets.push(appendOffset!);
    }
    if (chunks.length > 0) {
      const unsynced = this.unsyncedRecords + offset - segment.endOffset();
      const syncNow = this.context.flushMessages !== null && unsynced >= this.context.flushMessages;
      try {
        await segment.storage.write(chunks, segment.size);
        if (syncNow) await segment.storage.sync();
      } catch (error) {
        this.context.logger.error("log write failed", { topic: this.topic, partition: this.partition, error: String(error) });
        await segment.storage.truncate(segment.size);
        throw error;
      }
      for (const { offset: batchOffset, position: batchPosition, batch } of placed) {
        segment.index.add(batchOffset, batch.lastOffsetDelta, batchPosition, batch.maxTimestamp);
        this.transactions.track({ producerId: batch.producerId, baseOffset: batchOffset, transactional: isTransactionalBatch(batch), controlType: batch.controlType });
      }
      segment.size = position;
      segment.lastWriteMs = Date.now();
      this.unsyncedRecords = syncNow ? 0 : unsynced;
    }
    producers.commit(Date.now());
    const logStartOffset = this.logStartOffset();
    return baseOffsets.map((baseOffset) =>
      baseOffset instanceof Error ? { ok: false, error: baseOffset } : { ok: true, value: { baseOffset: BigInt(baseOffset), logStartOffset } },
    );
  }

  private async roll(): Promise<void> {
    // Records left unsynced in the segment that stops being active would otherwise wait for the next count forever.
    if (this.context.flushMessages !== null && this.unsyncedRecords > 0) {
      await this.activeSegment().storage.sync();
      this.unsyncedRecords = 0;
    }
    const baseOffset = this.activeSegment().endOffset();
    const storage = await this.context.storageFactory.create(baseOffset);
    this.segments.push(new Segment(baseOffset, storage, new BatchIndex(), 0, Date.now()));
    this.context.logger.debug("rolled log segment", { topic: this.topic, partition: this.partition, baseOffset });
  }

  private activeSegment(): Segment {
    return this.segments[this.segments.length - 1];
  }

  /** The last segment whose base offset is <= `offset`. */
  private segmentIndexFor(offset: number): number {
    let low = 0;
    let high = this.segments.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.segments[mid].baseOffset <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  private assertOpen(): void {
    if (this.state !== "open") throw this.closedError();
  }

  private closedError(): ApiError {
    return this.state === "deleted"
      ? new ApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `${this.name()} was deleted`)
      : new ApiError(ErrorCode.NOT_LEADER_OR_FOLLOWER, `the log store holding ${this.name()} is closed`);
  }

  private name(): string {
    return `${this.topic}-${this.partition}`;
  }
}
