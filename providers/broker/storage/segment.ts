/** One segment of a partition log: its bytes (a SegmentStorage) and the index of the batches in it. */
import { BatchIndex } from "./batch-index";
import type { SegmentStorage } from "./segment-storage";

export interface BatchRange {
  position: number;
  length: number;
  /** Index of the last batch in the range. */
  last: number;
}

export class Segment {
  /** Set once the segment is deleted, so a read racing with retention can tell why it failed. */
  removed = false;

  constructor(
    readonly baseOffset: number,
    readonly storage: SegmentStorage,
    readonly index: BatchIndex,
    /** Bytes of whole batches written. */
    public size: number,
    /** Wall-clock time of the last write: the retention age of a segment whose batches carry no timestamp. */
    public lastWriteMs: number,
  ) {}

  /** Offset after the segment's last batch (its base offset while empty). */
  endOffset(): number {
    const count = this.index.count;
    return count === 0 ? this.baseOffset : this.index.lastOffset(count - 1) + 1;
  }

  /** The time retention judges the segment by. */
  retentionTimestamp(): number {
    const largest = this.index.largestTimestamp();
    return largest >= 0 ? largest : this.lastWriteMs;
  }

  /** End position of batch `i`. */
  batchEnd(i: number): number {
    return i + 1 < this.index.count ? this.index.position(i + 1) : this.size;
  }

  /**
   * Batches from `first` on, as many as fit in `maxBytes` but at least one, and none starting at `endOffset` or
   * later (a read_committed read stops at the last stable offset): where they lie and the last of them.
   */
  batchRange(first: number, maxBytes: number, endOffset = Number.POSITIVE_INFINITY): BatchRange {
    const position = this.index.position(first);
    let last = first;
    while (last + 1 < this.index.count && this.batchEnd(last + 1) - position <= maxBytes && this.index.baseOffset(last + 1) < endOffset) last++;
    return { position, length: this.batchEnd(last) - position, last };
  }

  async remove(): Promise<void> {
    this.removed = true;
    await this.storage.remove();
  }
}
