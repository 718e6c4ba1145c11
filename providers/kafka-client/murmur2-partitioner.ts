/**
 * Kafka's default partitioner for keyed records: murmur2 of the key bytes (seed 0x9747b28c, as the Java
 * client's Utils.murmur2), made positive, modulo the partition count. 32-bit arithmetic with Math.imul, no
 * allocation: the runtime partitions every output record with it.
 */
const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** Kafka's murmur2 of `data`, as a signed 32-bit integer. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
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

/** The partition of `key` among `partitionCount`. */
export function partitionOfKey(key: Uint8Array, partitionCount: number): number {
  return (murmur2(key) & 0x7fffffff) % partitionCount;
}
