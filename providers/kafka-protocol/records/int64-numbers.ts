/**
 * Kafka's int64 fields (offsets, timestamps, long values) as JS numbers, exact up to 2^53: read and written as
 * two 32-bit halves, the high one signed, with no BigInt on the way.
 */
const TWO_TO_32 = 4294967296;

export function readInt64Number(bytes: Buffer, position: number): number {
  return bytes.readInt32BE(position) * TWO_TO_32 + bytes.readUInt32BE(position + 4);
}

export function writeInt64Number(bytes: Buffer, position: number, value: number): void {
  const high = Math.floor(value / TWO_TO_32);
  bytes.writeInt32BE(high, position);
  bytes.writeUInt32BE(value - high * TWO_TO_32, position + 4);
}
