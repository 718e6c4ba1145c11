/** Cuts a TCP byte stream into Kafka frames: an int32 size, then that many bytes. */

export class OversizeFrameError extends Error {
  constructor(readonly size: number, readonly limit: number) {
    super(`frame of ${size} bytes exceeds the limit of ${limit}`);
    this.name = "OversizeFrameError";
  }
}

export class FrameSplitter {
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Size of the frame being collected, or -1 while its size prefix is incomplete. */
  private expected = -1;

  constructor(private readonly maxFrameBytes: number) {}

  /** The frames (without their size prefix) completed by this chunk. Throws OversizeFrameError. */
  push(chunk: Buffer): Buffer[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    const frames: Buffer[] = [];
    for (;;) {
      if (this.expected === -1) {
        if (this.pendingBytes < 4) break;
        const size = this.take(4).readInt32BE(0);
        if (size < 0 || size > this.maxFrameBytes) throw new OversizeFrameError(size, this.maxFrameBytes);
        this.expected = size;
      }
      if (this.pendingBytes < this.expected) break;
      frames.push(this.take(this.expected));
      this.expected = -1;
    }
    return frames;
  }

  /** Removes `length` bytes from the front, copying only when they span chunks. */
  private take(length: number): Buffer {
    if (length === 0) return Buffer.alloc(0);
    const first = this.pending[0];
    let taken: Buffer;
    if (first.length >= length) {
      taken = first.subarray(0, length);
      if (first.length === length) this.pending.shift();
      else this.pending[0] = first.subarray(length);
    } else {
      taken = Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const head = this.pending[0];
        const used = Math.min(head.length, length - filled);
        head.copy(taken, filled, 0, used);
        filled += used;
        if (used === head.length) this.pending.shift();
        else this.pending[0] = head.subarray(used);
      }
    }
    this.pendingBytes -= length;
    return taken;
  }
}
