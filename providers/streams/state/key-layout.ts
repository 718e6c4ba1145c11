/**
 * Byte layout of a task's database. Everything sorts in LevelDB's byte order:
 *
 *   "s" <store name> 0x00 0x01 <key>                      key_value data (key = serialized key bytes)
 *   "s" <store name> 0x00 0x01 <esc(key)> <suffix>        window / session data
 *   "s" <store name> 0x00 0x02 <esc(key)>                 window / session directory: the key's suffixes
 *   "s" <store name> 0x00 0x03 <retention time> <esc(key)> <suffix>   window / session expiry index (empty value)
 *   "m" "checkpoint"                                      the task's checkpoint (JSON)
 *
 * A suffix is <window start> for windows and <session end> <session start> for sessions; the retention time of an
 * entry is its window's start or its session's end (see suffix-layouts.ts). Times are int64
 * big-endian with the sign bit flipped, so they sort numerically. esc() escapes 0x00 as 0x00 0x01 and ends
 * with 0x00 0x00: it keeps the keys' byte order and makes no encoded key a prefix of another, so one key's
 * windows are one contiguous range and never interleave with a longer key's.
 */

const DATA = 0x01;
const DIRECTORY = 0x02;
const EXPIRY = 0x03;
const TWO_POW_32 = 2 ** 32;
const TWO_POW_31 = 2 ** 31;

export const TIME_BYTES = 8;
export const CHECKPOINT_KEY = Buffer.from("mcheckpoint", "latin1");

/** The areas of one store, each a key prefix. */
export interface StoreAreas {
  /** Every key of the store starts with this. */
  readonly store: Buffer;
  readonly data: Buffer;
  readonly directory: Buffer;
  readonly expiry: Buffer;
}

export function storeAreas(storeName: string): StoreAreas {
  if (storeName.includes("\u0000")) throw new Error(`store name must not contain NUL: ${JSON.stringify(storeName)}`);
  const store = Buffer.concat([Buffer.from("s", "latin1"), Buffer.from(storeName, "utf8"), Buffer.from([0])]);
  const area = (tag: number) => Buffer.concat([store, Buffer.from([tag])]);
  return { store, data: area(DATA), directory: area(DIRECTORY), expiry: area(EXPIRY) };
}

/** The smallest key greater than every key that starts with `prefix`. */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] !== 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  throw new Error("prefix has no upper bound");
}

export function writeTime(target: Buffer, offset: number, time: number): void {
  const high = Math.floor(time / TWO_POW_32);
  target.writeUInt32BE(high + TWO_POW_31, offset);
  target.writeUInt32BE(time - high * TWO_POW_32, offset + 4);
}

export function readTime(source: Buffer, offset: number): number {
  return (source.readUInt32BE(offset) - TWO_POW_31) * TWO_POW_32 + source.readUInt32BE(offset + 4);
}

export function encodeTimes(...times: number[]): Buffer {
  const bytes = Buffer.allocUnsafe(times.length * TIME_BYTES);
  times.forEach((time, index) => writeTime(bytes, index * TIME_BYTES, time));
  return bytes;
}

export function escapeKey(key: Buffer): Buffer {
  let zeros = 0;
  for (const byte of key) if (byte === 0) zeros++;
  const escaped = Buffer.allocUnsafe(key.length + zeros + 2);
  let at = 0;
  for (const byte of key) {
    escaped[at++] = byte;
    if (byte === 0) escaped[at++] = 0x01;
  }
  escaped[at++] = 0;
  escaped[at] = 0;
  return escaped;
}

/** Decodes an escaped key that starts at `offset`; returns the key and where the bytes after it begin. */
export function unescapeKey(source: Buffer, offset: number): { key: Buffer; end: number } {
  const bytes: number[] = [];
  let at = offset;
  for (;;) {
    if (at >= source.length) throw new Error("escaped key has no terminator");
    const byte = source[at++];
    if (byte !== 0) {
      bytes.push(byte);
      continue;
    }
    if (source[at++] === 0) return { key: Buffer.from(bytes), end: at };
    bytes.push(0);
  }
}
