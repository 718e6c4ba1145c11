/**
 * Buffers that segment reads fill and that come back once the response holding them was written: a consumer
 * fetching a megabyte at a time reuses memory already mapped instead of faulting in a fresh megabyte per fetch.
 * A buffer that never comes back (a read whose bytes were dropped) is collected as any other.
 */

/** Reads below this size get a plain buffer: they are cheap, and a response copies small record sets. */
const SMALLEST_POOLED = 64 * 1024;
/** Larger reads get a plain buffer too: few clients fetch that much from one partition at once. */
const LARGEST_POOLED = 8 * 1024 * 1024;

export class ReadBuffers {
  /** Free buffers by size (powers of two). */
  private readonly free = new Map<number, Buffer[]>();
  private freeBytes = 0;
  private readonly lent = new WeakSet<ArrayBufferLike>();

  constructor(private readonly maxFreeBytes: number) {}

  /** A buffer of `length` bytes to fill. */
  take(length: number): Buffer {
    if (length < SMALLEST_POOLED || length > LARGEST_POOLED) return Buffer.allocUnsafe(length);
    const size = 2 ** Math.ceil(Math.log2(length));
    const reused = this.free.get(size)?.pop();
    if (reused) this.freeBytes -= size;
    // allocUnsafeSlow: a buffer of its own, never a slice of Node's shared pool.
    const whole = reused ?? Buffer.allocUnsafeSlow(size);
    this.lent.add(whole.buffer);
    return whole.subarray(0, length);
  }

  /** Takes back the buffers among `chunks` that `take` lent: the caller is done with them. */
  giveBack(chunks: readonly Buffer[]): void {
    for (const chunk of chunks) {
      const memory = chunk.buffer;
      if (!this.lent.has(memory)) continue;
      this.lent.delete(memory);
      if (this.freeBytes + memory.byteLength > this.maxFreeBytes) continue;
      const sameSize = this.free.get(memory.byteLength);
      const whole = Buffer.from(memory);
      if (sameSize) sameSize.push(whole);
      else this.free.set(memory.byteLength, [whole]);
      this.freeBytes += memory.byteLength;
    }
  }
}
