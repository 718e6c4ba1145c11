/**
 * A byte sequence held as the buffers it arrived in (socket reads) or was stored as, sliced and read
 * without joining them: a 1 MB produce request travels from the socket to the log file uncopied.
 */
export class ChunkedBytes {
  static readonly EMPTY = new ChunkedBytes([]);

  readonly length: number;

  /** `chunks` must not be changed afterwards. */
  constructor(readonly chunks: readonly Buffer[]) {
    let length = 0;
    for (const chunk of chunks) length += chunk.length;
    this.length = length;
  }

  static of(buffer: Buffer): ChunkedBytes {
    return new ChunkedBytes([buffer]);
  }

  /** The bytes `[start, end)`, sharing memory with these. */
  slice(start: number, end = this.length): ChunkedBytes {
    if (start === 0 && end === this.length) return this;
    if (start >= end) return ChunkedBytes.EMPTY;
    const parts: Buffer[] = [];
    let chunkStart = 0;
    for (const chunk of this.chunks) {
      const chunkEnd = chunkStart + chunk.length;
      if (chunkEnd > start && chunkStart < end) {
        parts.push(chunk.subarray(Math.max(start - chunkStart, 0), Math.min(end, chunkEnd) - chunkStart));
      }
      if (chunkEnd >= end) break;
      chunkStart = chunkEnd;
    }
    return new ChunkedBytes(parts);
  }

  /** The bytes `[start, start + length)` in one buffer: a view when they lie in one chunk, else a copy. */
  contiguous(start: number, length: number): Buffer {
    let chunkStart = 0;
    for (const chunk of this.chunks) {
      if (start < chunkStart + chunk.length) {
        const from = start - chunkStart;
        if (from + length <= chunk.length) return chunk.subarray(from, from + length);
        break;
      }
      chunkStart += chunk.length;
    }
    return Buffer.concat(this.slice(start, start + length).chunks, length);
  }

  /** All the bytes in one buffer: a copy unless they are one chunk already. */
  toBuffer(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
  }
}
