/**
 * Big-endian writes into a growing buffer. Large byte values (record sets) are kept as separate chunks
 * instead of being copied, so a fetch response goes to the socket without duplicating its batches.
 */
import type { ChunkedBytes } from "./chunked-bytes";

const INITIAL_SIZE = 256;
const BY_REFERENCE_THRESHOLD = 4096;

export class ByteWriter {
  private readonly chunks: Buffer[] = [];
  private current = Buffer.allocUnsafe(INITIAL_SIZE);
  private position = 0;
  private flushedBytes = 0;

  get length(): number {
    return this.flushedBytes + this.position;
  }

  /** Makes room and returns where to write; callers must take `this.current` only after calling it. */
  private reserve(length: number): number {
    if (this.position + length > this.current.length) {
      const size = Math.max(this.current.length * 2, this.position + length);
      const grown = Buffer.allocUnsafe(size);
      this.current.copy(grown, 0, 0, this.position);
      this.current = grown;
    }
    const at = this.position;
    this.position += length;
    return at;
  }

  int8(value: number): void {
    const at = this.reserve(1);
    this.current.writeInt8(value, at);
  }

  int16(value: number): void {
    const at = this.reserve(2);
    this.current.writeInt16BE(value, at);
  }

  int32(value: number): void {
    const at = this.reserve(4);
    this.current.writeInt32BE(value, at);
  }

  int64(value: bigint): void {
    const at = this.reserve(8);
    this.current.writeBigInt64BE(value, at);
  }

  boolean(value: boolean): void {
    this.int8(value ? 1 : 0);
  }

  nullableString(value: string | null): void {
    if (value === null) {
      this.int16(-1);
      return;
    }
    const length = Buffer.byteLength(value, "utf8");
    this.int16(length);
    const at = this.reserve(length);
    this.current.write(value, at, length, "utf8");
  }

  nullableBytes(value: Buffer | null): void {
    if (value === null) {
      this.int32(-1);
      return;
    }
    this.int32(value.length);
    this.append(value);
  }

  nullableRecords(value: ChunkedBytes | null): void {
    if (value === null) {
      this.int32(-1);
      return;
    }
    this.int32(value.length);
    for (const chunk of value.chunks) this.append(chunk);
  }

  private append(bytes: Buffer): void {
    if (bytes.length < BY_REFERENCE_THRESHOLD) {
      const at = this.reserve(bytes.length);
      bytes.copy(this.current, at);
      return;
    }
    this.flushCurrent();
    this.chunks.push(bytes);
    this.flushedBytes += bytes.length;
  }

  private flushCurrent(): void {
    if (this.position === 0) return;
    this.chunks.push(this.current.subarray(0, this.position));
    this.flushedBytes += this.position;
    this.current = Buffer.allocUnsafe(INITIAL_SIZE);
    this.position = 0;
  }

  /**
   * The written bytes as chunks, in order, with the int32 written first overwritten by the length of
   * everything after it (a frame's size prefix). The writer must not be used afterwards.
   */
  finishFrame(): Buffer[] {
    this.flushCurrent();
    this.chunks[0].writeInt32BE(this.flushedBytes - 4, 0);
    return this.chunks;
  }

  /** The written bytes in one buffer. The writer must not be used afterwards. */
  finish(): Buffer {
    this.flushCurrent();
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.flushedBytes);
  }
}
