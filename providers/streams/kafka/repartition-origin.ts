/**
 * Exactly-once across a repartition topic without transactions. A task that re-processes input after a crash
 * or a rebalance (from the group's committed offset) writes again what it had already written to the
 * repartition topic. Each repartition record therefore carries its origin — the input topic-partition, the
 * input offset and its rank among that input record's outputs — and the reading task keeps, per origin
 * partition, the last origin it applied, in the same atomic commit as its stores; a record at or below it is
 * a re-send and is skipped. Records of one origin partition reach each repartition partition in order
 * (one producer, requests sent one after the other), so a high-water mark is enough.
 */
import type { StampHeader } from "../../kafka-client";
import { TopicPartitionMap, type TopicPartition } from "./topic-partition";

export const ORIGIN_HEADER = "sluice.origin";
/** The header's name as its bytes: written by stamps, looked for by the commit sequence. */
export const ORIGIN_HEADER_NAME = Buffer.from(ORIGIN_HEADER, "latin1");

/**
 * The origin header of one repartition record, `<offset>.<rank>@<topic>:<partition>`, written by the encoder
 * straight into the batch: the record's output costs this one small object, not a string.
 */
export class OriginStamp implements StampHeader {
  readonly valueBytes: number;

  /** `source`: `@<topic>:<partition>` in UTF-8. */
  constructor(
    private readonly source: Buffer,
    private readonly offset: number,
    private readonly rank: number,
  ) {
    this.valueBytes = decimalDigits(offset) + 1 + decimalDigits(rank) + source.length;
  }

  get name(): Buffer {
    return ORIGIN_HEADER_NAME;
  }

  writeValue(buffer: Buffer, position: number): number {
    const end = position + this.valueBytes;
    const sourceStart = end - this.source.length;
    buffer.set(this.source, sourceStart);
    const rankStart = writeDecimalEndingAt(buffer, sourceStart, this.rank);
    buffer[rankStart - 1] = DOT;
    writeDecimalEndingAt(buffer, rankStart - 1, this.offset);
    return end;
  }
}

/** Stamps the outputs of one task's input partition; keeps the `@<topic>:<partition>` bytes of the last input topic. */
export class OriginStamps {
  private topic = "";
  private source = Buffer.alloc(0);

  constructor(private readonly partition: number) {}

  stamp(topic: string, offset: number, rank: number): OriginStamp {
    if (topic !== this.topic) {
      this.source = Buffer.from(`@${topic}:${this.partition}`, "utf8");
      this.topic = topic;
    }
    return new OriginStamp(this.source, offset, rank);
  }
}

/** Decimal digits of a non-negative integer up to 2^53. */
function decimalDigits(value: number): number {
  let digits = 1;
  for (let limit = 10; value >= limit; limit *= 10) digits++;
  return digits;
}

/**
 * Writes the decimal digits of `value` (a non-negative integer up to 2^53) so that they end at `end`; returns where
 * they start. Below 2^31 in int32 arithmetic: a remainder of doubles would be a call to fmod per digit.
 */
function writeDecimalEndingAt(buffer: Buffer, end: number, value: number): number {
  let position = end;
  for (; value >= 0x80000000; value = Math.floor(value / 10)) buffer[--position] = 48 + (value % 10);
  let rest = value | 0;
  do {
    const tens = (rest / 10) | 0;
    buffer[--position] = 48 + rest - tens * 10;
    rest = tens;
  } while (rest > 0);
  return position;
}

/** The last repartition record applied from one origin partition. */
export interface OriginMark {
  offset: number;
  rank: number;
}

const DOT = 0x2e;
const AT = 0x40;
const COLON = 0x3a;

/** One task's origin marks: the repartition records it has applied, by origin partition. */
export class OriginMarks {
  private readonly marks = new TopicPartitionMap<OriginMark>();
  /** The origin partition of the last stamp (`<topic>:<partition>` bytes) and its mark: stamps come in runs. */
  private lastOrigin: Buffer = Buffer.alloc(0);
  private lastMark: OriginMark | undefined;

  constructor(committed: Iterable<[TopicPartition, OriginMark]> = []) {
    for (const [{ topic, partition }, mark] of committed) this.marks.set(topic, partition, { ...mark });
  }

  /**
   * Whether the record stamped `bytes[start, end)` (the origin header's value) is applied for the first time; if
   * so, it becomes its origin partition's newest mark. A stamp that is not `<offset>.<rank>@<origin>` is admitted.
   */
  admit(bytes: Buffer, start = 0, end = bytes.length): boolean {
    let position = start;
    let offset = 0;
    let rank = 0;
    let digits = 0;
    for (; position < end && bytes[position] !== DOT; position++, digits++) offset = offset * 10 + bytes[position] - 48;
    if (digits === 0 || position === end) return true;
    digits = 0;
    for (position++; position < end && bytes[position] !== AT; position++, digits++) rank = rank * 10 + bytes[position] - 48;
    if (digits === 0 || position === end) return true;
    const mark = this.markOf(bytes, position + 1, end);
    if (mark === undefined) return true;
    if (offset < mark.offset || (offset === mark.offset && rank <= mark.rank)) return false;
    mark.offset = offset;
    mark.rank = rank;
    return true;
  }

  entries(): IterableIterator<[TopicPartition, OriginMark]> {
    return this.marks.entries();
  }

  get size(): number {
    return this.marks.size;
  }

  /** The mark of the stamp's origin (`<topic>:<partition>` in `bytes[originStart, end)`); undefined for an origin that is none. */
  private markOf(bytes: Buffer, originStart: number, end: number): OriginMark | undefined {
    const length = end - originStart;
    const last = this.lastOrigin;
    let same = last.length === length && this.lastMark !== undefined;
    for (let i = 0; same && i < length; i++) same = last[i] === bytes[originStart + i];
    if (same) return this.lastMark;
    const colon = bytes.lastIndexOf(COLON, end - 1);
    if (colon < originStart) return undefined;
    const topic = bytes.toString("latin1", originStart, colon);
    const partition = Number(bytes.toString("latin1", colon + 1, end));
    let mark = this.marks.get(topic, partition);
    if (mark === undefined) {
      mark = { offset: -1, rank: -1 };
      this.marks.set(topic, partition, mark);
    }
    this.lastOrigin = Buffer.from(bytes.subarray(originStart, end));
    this.lastMark = mark;
    return mark;
  }
}
