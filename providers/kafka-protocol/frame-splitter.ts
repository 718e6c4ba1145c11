/**
 * Cuts a TCP byte stream into Kafka frames: an int32 size, then that many bytes. A frame is handed on as
 * views of the socket chunks it arrived in, never copied: a 1 MB produce request spans some sixteen.
 */
import { ChunkedBytes } from "./chunked-bytes";

export class OversizeFrameError extends Error {
  constructor(readonly size: number, readonly limit: number) {
    super(`frame of ${size} bytes exceeds the limit of ${limit}`);
    this.name = "OversizeFrameError";
  }
}

const SIZE_PREFIX_BYTES = 4;

export class FrameSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Size of the frame being collected, or -1 while its size prefix is incomplete. */
  private expected = -1;

  /** Larger frames throw OversizeFrameError; a server may change it as a connection authenticates. */
  constructor(public maxFrameBytes: number) {}

  /** The frames (without their size prefix) completed by this chunk. Throws OversizeFrameError. */
  push(chunk: Buffer): ChunkedBytes[] {
    if (chunk.length === 0) return [];
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    const frames: ChunkedBytes[] = [];
    for (;;) {
      if (this.expected === -1) {
        if (this.pendingBytes < SIZE_PREFIX_BYTES) break;
        const size = this.take(SIZE_PREFIX_BYTES).contiguous(0, SIZE_PREFIX_BYTES).readInt32BE(0);
        if (size < 0 || size > this.maxFrameBytes) throw new OversizeFrameError(size, this.maxFrameBytes);
        this.expected = size;
      }
      if (this.pendingBytes < this.expected) break;
      frames.push(this.take(this.expected));
      this.expected = -1;
    }
    return frames;
  }

  /** Removes `length` bytes from the front, as views of the chunks holding them. */
  private take(length: number): ChunkedBytes {
    let count = 0;
    let covered = 0;
    while (covered < length) covered += this.pending[count++].length;
    const taken = this.pending.slice(0, count);
    const excess = covered - length;
    if (excess === 0) {
      this.pending = this.pending.slice(count);
    } else {
      const last = taken[count - 1];
      taken[count - 1] = last.subarray(0, last.length - excess);
      this.pending = [last.subarray(last.length - excess), ...this.pending.slice(count)];
    }
    this.pendingBytes -= length;
    return new ChunkedBytes(taken);
  }
}
