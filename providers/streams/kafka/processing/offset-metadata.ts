/**
 * The metadata a task commits with each input partition's offset, in Kafka Streams' layout (its
 * TopicPartitionMetadata): base64 of a version byte (2), the partition time as an 8-byte big-endian integer, then
 * the processor metadata (none here: Sluice keeps no processor metadata in offsets). A task taking the partition over
 * starts from that partition time, as Kafka Streams' tasks do; Kafka Streams reads Sluice's, and Sluice theirs.
 */

const VERSION = 2;
/** Version 1 held the partition time only. */
const VERSION_TIME_ONLY = 1;

export function encodeOffsetMetadata(partitionTime: number): string {
  const bytes = Buffer.alloc(9);
  bytes.writeUInt8(VERSION, 0);
  bytes.writeBigInt64BE(BigInt(partitionTime), 1);
  return bytes.toString("base64");
}

/** The partition time of committed offset metadata; -1 when there is none, or it is not Kafka Streams' layout. */
export function decodeOffsetMetadata(metadata: string | null | undefined): number {
  if (!metadata) return -1;
  const bytes = Buffer.from(metadata, "base64");
  if (bytes.length < 9 || (bytes[0] !== VERSION && bytes[0] !== VERSION_TIME_ONLY)) return -1;
  return Number(bytes.readBigInt64BE(1));
}
