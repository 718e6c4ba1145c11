/**
 * Exactly-once across a repartition topic without transactions. A task that re-processes input after a crash
 * or a rebalance (from the group's committed offset) writes again what it had already written to the
 * repartition topic. Each repartition record therefore carries its origin — the input topic-partition, the
 * input offset and its rank among that input record's outputs — and the reading task keeps, per origin
 * partition, the last origin it applied, in the same atomic commit as its stores; a record at or below it is
 * a re-send and is skipped. Records of one origin partition reach each repartition partition in order
 * (one producer, requests sent one after the other), so a high-water mark is enough.
 */

export const ORIGIN_HEADER = "sluice.origin";
/** Origin marks are kept among a task's input positions under this prefix. */
export const ORIGIN_POSITION_PREFIX = "origin:";

/** Header value: `<offset>.<rank>@<topic>:<partition>`. */
export function originStamp(topic: string, partition: number, offset: number, rank: number): string {
  return `${offset}.${rank}@${topic}:${partition}`;
}

interface Mark {
  offset: number;
  rank: number;
}

const DOT = 0x2e;
const AT = 0x40;

/**
 * One task's origin marks: which repartition records it has applied. Read from the task's checkpointed
 * positions, kept as numbers while records are admitted, and written back into the positions (as
 * `<offset>.<rank>` under `origin:<topic>:<partition>`) before they are committed.
 */
export class OriginMarks {
  private readonly marks = new Map<string, Mark>();
  private readonly changed = new Set<string>();
  /** The origin partition of the last stamp (`<topic>:<partition>` bytes) and its positions key: stamps come in runs. */
  private lastOrigin: Buffer = Buffer.alloc(0);
  private lastKey = "";

  constructor(private readonly positions: Record<string, string>) {}

  /**
   * Whether the record stamped `stamp` (the origin header's bytes) is applied for the first time; if so, it
   * becomes its origin partition's newest mark. A stamp that is not `<offset>.<rank>@<origin>` is admitted.
   */
  admit(stamp: Buffer): boolean {
    let position = 0;
    let offset = 0;
    let rank = 0;
    let digits = 0;
    for (; position < stamp.length && stamp[position] !== DOT; position++, digits++) offset = offset * 10 + stamp[position] - 48;
    if (digits === 0 || position === stamp.length) return true;
    digits = 0;
    for (position++; position < stamp.length && stamp[position] !== AT; position++, digits++) rank = rank * 10 + stamp[position] - 48;
    if (digits === 0 || position === stamp.length) return true;
    const key = this.keyOf(stamp, position + 1);
    let mark = this.marks.get(key);
    if (mark === undefined) {
      mark = parseMark(this.positions[key]);
      this.marks.set(key, mark);
    }
    if (offset < mark.offset || (offset === mark.offset && rank <= mark.rank)) return false;
    mark.offset = offset;
    mark.rank = rank;
    this.changed.add(key);
    return true;
  }

  /** Puts the marks changed since the last call into the positions. */
  writeBack(): void {
    for (const key of this.changed) {
      const mark = this.marks.get(key)!;
      this.positions[key] = `${mark.offset}.${mark.rank}`;
    }
    this.changed.clear();
  }

  private keyOf(stamp: Buffer, originStart: number): string {
    const length = stamp.length - originStart;
    const last = this.lastOrigin;
    let same = last.length === length;
    for (let i = 0; same && i < length; i++) same = last[i] === stamp[originStart + i];
    if (!same) {
      this.lastOrigin = Buffer.from(stamp.subarray(originStart));
      this.lastKey = `${ORIGIN_POSITION_PREFIX}${this.lastOrigin.toString("latin1")}`;
    }
    return this.lastKey;
  }
}

/** A checkpointed `<offset>.<rank>`; none yet is below every stamp. */
function parseMark(stored: string | undefined): Mark {
  if (stored === undefined) return { offset: -1, rank: -1 };
  const dot = stored.indexOf(".");
  return { offset: Number(stored.slice(0, dot)), rank: Number(stored.slice(dot + 1)) };
}
