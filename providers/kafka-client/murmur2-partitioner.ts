/**
 * Kafka's default partitioner for keyed records: murmur2 of the key bytes (seed 0x9747b28c, as the Java
 * client's Utils.murmur2), made positive, modulo the partition count. 32-bit arithmetic with Math.imul, no
 * allocation: the runtime partitions every output record with it. A string key is hashed as its UTF-8.
 */
import { utf8Bytes, writeUtf8 } from "../kafka-protocol/records/utf8-text";

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** Kafka's murmur2 of `data`'s first `length` bytes, as a signed 32-bit integer. */
export function murmur2(data: Uint8Array, length = data.length): number {
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const tail = length & 3;
  if (tail > 0) {
    if (tail === 3) h ^= data[whole + 2] << 16;
    if (tail >= 2) h ^= data[whole + 1] << 8;
    h ^= data[whole];
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition of `key` (a string: its UTF-8) among `partitionCount`. */
export function partitionOfKey(key: Uint8Array | string, partitionCount: number): number {
  const hash = typeof key === "string" ? murmur2(textBytes, writeText(key)) : murmur2(key);
  return (hash & 0x7fffffff) % partitionCount;
}

/** Where a string key's UTF-8 is written to be hashed; grows, never shrinks. */
let textBytes = Buffer.allocUnsafeSlow(256);

/** Writes `text`'s UTF-8 into `textBytes`; returns its length. */
function writeText(text: string): number {
  const bytes = utf8Bytes(text);
  if (textBytes.length < bytes) textBytes = Buffer.allocUnsafeSlow(Math.max(bytes, textBytes.length * 2));
  writeUtf8(textBytes, 0, text, bytes);
  return bytes;
}
