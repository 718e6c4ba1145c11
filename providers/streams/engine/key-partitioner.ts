/** The default partitioner (murmur2 of the key bytes, as Kafka's and kafkajs's DefaultPartitioner). */
import { Partitioners } from "kafkajs";

const partitioner = Partitioners.DefaultPartitioner();

export function partitionForKey(topic: string, key: Buffer, partitionCount: number): number {
  const partitionMetadata = Array.from({ length: partitionCount }, (_, partitionId) => ({
    partitionId,
    leader: 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }));
  return partitioner({ topic, partitionMetadata, message: { key, value: null } });
}
