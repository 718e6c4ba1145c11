/**
 * Bounds-checked big-endian reads over one frame, which may span several socket chunks; slices share the
 * frame's memory. A value split across two chunks is copied into a buffer of its own.
 */
import { ChunkedBytes } from "./chunked-bytes";
import { MalformedMessageError } from "./malformed-message-error";

export class ByteReader {
  private readonly chunks: readonly Buffer[];
  private readonly length: number;
  /** Absolute read position, and the same as chunk number and position within it. */
  private position = 0;
  private chunkIndex = 0;
  private inChunk = 0;
  /** The buffer the last `take` made its bytes readable in. */
  private view: Buffer = Buffer.alloc(0);

  constructor(bytes: Buffer | ChunkedBytes) {
    const chunked = bytes instanceof ChunkedBytes ? bytes : ChunkedBytes.of(bytes);
    this.chunks = chunked.chunks;
    this.length = chunked.length;
    this.advance(0);
  }

  get offset(): number {
    return this.position;
  }

  remaining(): number {
    return this.length - this.position;
  }

  /** Consumes `length` bytes and returns where they start in `this.view`. */
  private take(length: number): number {
    this.ensure(length);
    const chunk = this.chunks[this.chunkIndex];
    if (chunk !== undefined && this.inChunk + length <= chunk.length) {
      const at = this.inChunk;
      this.view = chunk;
      this.advance(length);
      return at;
    }
    this.view = Buffer.concat(this.slice(length).chunks, length);
    return 0;
  }

  /** Consumes `length` bytes and returns them as views of the chunks they lie in. */
  private slice(length: number): ChunkedBytes {
    this.ensure(length);
    const parts: Buffer[] = [];
    let left = length;
    while (left > 0) {
      const chunk = this.chunks[this.chunkIndex];
      const used = Math.min(chunk.length - this.inChunk, left);
      parts.push(chunk.subarray(this.inChunk, this.inChunk + used));
      this.advance(used);
      left -= used;
    }
    return new ChunkedBytes(parts);
  }

  private skip(length: number): void {
    this.ensure(length);
    this.advance(length);
  }

  private ensure(length: number): void {
    if (length < 0 || this.position + length > this.length) {
      throw new MalformedMessageError(`needs ${length} bytes at offset ${this.position}, frame has ${this.length}`);
    }
  }

  private advance(length: number): void {
    this.position += length;
    this.inChunk += length;
    while (this.chunkIndex < this.chunks.length - 1 && this.inChunk >= this.chunks[this.chunkIndex].length) {
      this.inChunk -= this.chunks[this.chunkIndex].length;
      this.chunkIndex++;
    }
  }

  int8(): number {
    const at = this.take(1);
    return this.view.readInt8(at);
  }

  int16(): number {
    const at = this.take(2);
    return this.view.readInt16BE(at);
  }

  int32(): number {
    const at = this.take(4);
    return this.view.readInt32BE(at);
  }

  int64(): bigint {
    const at = this.take(8);
    return this.view.readBigInt64BE(at);
  }

  boolean(): boolean {
    return this.int8() !== 0;
  }

  /** A Uuid's 16 bytes, as Kafka prints them (URL-safe base64, no padding). */
  uuid(): string {
    const at = this.take(16);
    return this.view.toString("base64url", at, at + 16);
  }

  /** A string with an int16 length; null when the length is -1. */
  nullableString(): string | null {
    return this.stringOf(this.int16());
  }

  /** Bytes with an int32 length, in one buffer; null when the length is -1. */
  nullableBytes(): Buffer | null {
    return this.bytesOf(this.int32());
  }

  /** A record set with an int32 length, left in the chunks it arrived in; null when the length is -1. */
  nullableRecords(): ChunkedBytes | null {
    const length = this.int32();
    return length === -1 ? null : this.slice(length);
  }

  /** An array length; null for -1. Rejects counts that cannot fit in what is left of the frame. */
  arrayLength(): number | null {
    return this.countOf(this.int32());
  }

  /** An unsigned varint of up to 32 bits: the lengths, counts and tags of flexible versions. */
  uvarint(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const at = this.take(1);
      const byte = this.view[at];
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new MalformedMessageError(`unsigned varint longer than 5 bytes before offset ${this.position}`);
  }

  /** A flexible version's string: length + 1 as an unsigned varint, 0 for null. */
  compactNullableString(): string | null {
    return this.stringOf(this.uvarint() - 1);
  }

  /** A flexible version's bytes: length + 1 as an unsigned varint, 0 for null. */
  compactNullableBytes(): Buffer | null {
    return this.bytesOf(this.uvarint() - 1);
  }

  /** A flexible version's record set, left in the chunks it arrived in. */
  compactNullableRecords(): ChunkedBytes | null {
    const length = this.uvarint() - 1;
    return length === -1 ? null : this.slice(length);
  }

  /** A flexible version's array length: count + 1 as an unsigned varint, 0 for null. */
  compactArrayLength(): number | null {
    return this.countOf(this.uvarint() - 1);
  }

  /** Reads past a flexible version's tagged fields: a count, then each field's tag, size and bytes. */
  skipTaggedFields(): void {
    const count = this.uvarint();
    for (let i = 0; i < count; i++) {
      this.uvarint();
      this.skip(this.uvarint());
    }
  }

  private stringOf(length: number): string | null {
    if (length === -1) return null;
    const at = this.take(length);
    return this.view.toString("utf8", at, at + length);
  }

  private bytesOf(length: number): Buffer | null {
    if (length === -1) return null;
    const at = this.take(length);
    return this.view.subarray(at, at + length);
  }

  private countOf(count: number): number | null {
    if (count === -1) return null;
    if (count < 0 || count > this.remaining()) {
      throw new MalformedMessageError(`array of ${count} elements with ${this.remaining()} bytes left`);
    }
    return count;
  }
}
