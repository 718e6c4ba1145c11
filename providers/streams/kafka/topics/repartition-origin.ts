/**
 * Exactly-once across a repartition topic without transactions. A task that re-processes input after a crash
 * or a rebalance (from the group's committed offset) writes again what it had already written to the
 * repartition topic. Each repartition record therefore carries its origin (stamped by engine/origin-stamps) —
 * the input topic-partition, the input offset and its rank among that input record's outputs — and the reading
 * task keeps, per origin partition, the last origin it applied, in the same atomic commit as its stores; a
 * record at or below it is a re-send and is skipped. Records of one origin partition reach each repartition
 * partition in order (one producer, requests sent one after the other), so a high-water mark is enough.
 */
import { TopicPartitionMap, type TopicPartition } from "./topic-partition";

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
    return this.check(bytes, start, end, true);
  }

  /** Whether `admit` would admit the record now; the marks stay as they are. */
  admits(bytes: Buffer, start = 0, end = bytes.length): boolean {
    return this.check(bytes, start, end, false);
  }

  private check(bytes: Buffer, start: number, end: number, take: boolean): boolean {
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
    if (take) {
      mark.offset = offset;
      mark.rank = rank;
    }
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
