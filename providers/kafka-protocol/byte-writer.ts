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

  private uint8(value: number): void {
    const at = this.reserve(1);
    this.current.writeUInt8(value, at);
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

  /** A Uuid given as Kafka prints it (URL-safe base64 of its 16 bytes). */
  uuid(value: string): void {
    const bytes = Buffer.from(value, "base64url");
    if (bytes.length !== 16) throw new Error(`${JSON.stringify(value)} is not a Uuid (16 bytes in URL-safe base64)`);
    this.append(bytes);
  }

  nullableString(value: string | null): void {
    if (value === null) this.int16(-1);
    else this.utf8(value, (length) => this.int16(length));
  }

  nullableBytes(value: Buffer | null): void {
    this.int32(value === null ? -1 : value.length);
    if (value !== null) this.append(value);
  }

  nullableRecords(value: ChunkedBytes | null): void {
    this.int32(value === null ? -1 : value.length);
    if (value !== null) for (const chunk of value.chunks) this.append(chunk);
  }

  /** An unsigned varint of up to 32 bits: the lengths, counts and tags of flexible versions. */
  uvarint(value: number): void {
    let left = value;
    while (left >= 0x80) {
      this.uint8((left & 0x7f) | 0x80);
      left = Math.floor(left / 128);
    }
    this.uint8(left);
  }

  /** A flexible version's string: length + 1 as an unsigned varint, 0 for null. */
  compactNullableString(value: string | null): void {
    if (value === null) this.uvarint(0);
    else this.utf8(value, (length) => this.uvarint(length + 1));
  }

  compactNullableBytes(value: Buffer | null): void {
    this.uvarint(value === null ? 0 : value.length + 1);
    if (value !== null) this.append(value);
  }

  compactNullableRecords(value: ChunkedBytes | null): void {
    this.uvarint(value === null ? 0 : value.length + 1);
    if (value !== null) for (const chunk of value.chunks) this.append(chunk);
  }

  /** A flexible version's array length: count + 1 as an unsigned varint, 0 for null. */
  compactArrayLength(count: number | null): void {
    this.uvarint(count === null ? 0 : count + 1);
  }

  /** The tagged fields of a flexible version's struct or header: Sluice writes none. */
  noTaggedFields(): void {
    this.uvarint(0);
  }

  private utf8(value: string, writeLength: (length: number) => void): void {
    const length = Buffer.byteLength(value, "utf8");
    writeLength(length);
    const at = this.reserve(length);
    this.current.write(value, at, length, "utf8");
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
