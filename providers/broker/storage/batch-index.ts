/**
 * The in-memory index of one segment: per batch its base offset, last offset delta, file position and the
 * running maximum of batch max timestamps (monotonic, so a timestamp lookup is a binary search).
 * Columnar typed arrays keep it at 28 bytes per batch with no per-batch objects.
 * Offsets and timestamps are JS numbers here: exact up to 2^53, far beyond any offset this broker assigns.
 */

const INITIAL_CAPACITY = 64;

export class BatchIndex {
  private baseOffsets = new Float64Array(INITIAL_CAPACITY);
  private lastDeltas = new Int32Array(INITIAL_CAPACITY);
  private positions = new Float64Array(INITIAL_CAPACITY);
  private runningMaxTimestamps = new Float64Array(INITIAL_CAPACITY);
  private length = 0;

  get count(): number {
    return this.length;
  }

  add(baseOffset: number, lastOffsetDelta: number, position: number, maxTimestamp: number): void {
    if (this.length === this.baseOffsets.length) this.grow();
    const i = this.length++;
    this.baseOffsets[i] = baseOffset;
    this.lastDeltas[i] = lastOffsetDelta;
    this.positions[i] = position;
    this.runningMaxTimestamps[i] = i === 0 ? maxTimestamp : Math.max(maxTimestamp, this.runningMaxTimestamps[i - 1]);
  }

  baseOffset(i: number): number {
    return this.baseOffsets[i];
  }

  lastOffset(i: number): number {
    return this.baseOffsets[i] + this.lastDeltas[i];
  }

  position(i: number): number {
    return this.positions[i];
  }

  /** Largest batch max timestamp among batches 0..i. */
  maxTimestampUpTo(i: number): number {
    return this.runningMaxTimestamps[i];
  }

  /** Largest batch max timestamp in the segment, -1 when it holds no batch. */
  largestTimestamp(): number {
    return this.length === 0 ? -1 : this.runningMaxTimestamps[this.length - 1];
  }

  /** First batch whose last offset is >= `offset`, or -1. */
  findByOffset(offset: number): number {
    return this.firstIndexWhere((i) => this.lastOffset(i) >= offset);
  }

  /** First batch whose max timestamp is >= `timestamp`, or -1. */
  findByTimestamp(timestamp: number): number {
    return this.firstIndexWhere((i) => this.runningMaxTimestamps[i] >= timestamp);
  }

  /** Binary search for the first index satisfying a predicate that is monotonic over the batches. */
  private firstIndexWhere(satisfies: (i: number) => boolean): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (satisfies(mid)) high = mid;
      else low = mid + 1;
    }
    return low < this.length ? low : -1;
  }

  private grow(): void {
    const capacity = this.baseOffsets.length * 2;
    const widen = <A extends Float64Array | Int32Array>(from: A, to: A): A => {
      to.set(from);
      return to;
    };
    this.baseOffsets = widen(this.baseOffsets, new Float64Array(capacity));
    this.lastDeltas = widen(this.lastDeltas, new Int32Array(capacity));
    this.positions = widen(this.positions, new Float64Array(capacity));
    this.runningMaxTimestamps = widen(this.runningMaxTimestamps, new Float64Array(capacity));
  }
}
