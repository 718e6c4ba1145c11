/** Bounds-checked big-endian reads over one request frame; slices share the frame's memory. */
import { MalformedMessageError } from "./malformed-message-error";

export class ByteReader {
  private position: number;

  constructor(private readonly buffer: Buffer, start = 0) {
    this.position = start;
  }

  get offset(): number {
    return this.position;
  }

  remaining(): number {
    return this.buffer.length - this.position;
  }

  private take(length: number): number {
    if (length < 0 || this.position + length > this.buffer.length) {
      throw new MalformedMessageError(`needs ${length} bytes at offset ${this.position}, frame has ${this.buffer.length}`);
    }
    const at = this.position;
    this.position += length;
    return at;
  }

  int8(): number {
    return this.buffer.readInt8(this.take(1));
  }

  int16(): number {
    return this.buffer.readInt16BE(this.take(2));
  }

  int32(): number {
    return this.buffer.readInt32BE(this.take(4));
  }

  int64(): bigint {
    return this.buffer.readBigInt64BE(this.take(8));
  }

  boolean(): boolean {
    return this.int8() !== 0;
  }

  /** A string with an int16 length; null when the length is -1. */
  nullableString(): string | null {
    const length = this.int16();
    if (length === -1) return null;
    const at = this.take(length);
    return this.buffer.toString("utf8", at, at + length);
  }

  /** Bytes with an int32 length; null when the length is -1. */
  nullableBytes(): Buffer | null {
    const length = this.int32();
    if (length === -1) return null;
    const at = this.take(length);
    return this.buffer.subarray(at, at + length);
  }

  /** An array length; null for -1. Rejects counts that cannot fit in what is left of the frame. */
  arrayLength(): number | null {
    const count = this.int32();
    if (count === -1) return null;
    if (count < 0 || count > this.remaining()) {
      throw new MalformedMessageError(`array of ${count} elements with ${this.remaining()} bytes left`);
    }
    return count;
  }
}
