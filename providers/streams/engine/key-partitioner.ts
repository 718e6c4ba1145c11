/** The default partitioner (murmur2 of the key bytes, as Kafka's and kafkajs's DefaultPartitioner). */
import { Partitioners, type PartitionMetadata } from "kafkajs";

const partitioner = Partitioners.DefaultPartitioner();
/** The partitioner only reads the partitions' count and leaders, so one description per count serves every topic. */
const metadataByCount = new Map<number, PartitionMetadata[]>();

function metadataOf(partitionCount: number): PartitionMetadata[] {
  let metadata = metadataByCount.get(partitionCount);
  if (!metadata) {
    metadata = Array.from({ length: partitionCount }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
    metadataByCount.set(partitionCount, metadata);
  }
  return metadata;
}

export function partitionForKey(topic: string, key: Buffer, partitionCount: number): number {
  return partitioner({ topic, partitionMetadata: metadataOf(partitionCount), message: { key, value: null } });
}
