/**
 * Requests about partitions go to each partition's leader: partitions sorted by the leader the metadata names, and
 * ListOffsets, which the fetcher (earliest and latest offsets) and the cluster admin (log start and end) send.
 */
import { errorCodeName } from "../kafka-protocol";
import { LIST_OFFSETS } from "./client-apis";
import type { ClusterMetadata } from "./cluster-metadata";
import type { ConnectionPool } from "./connection-pool";
import type { TopicPartitionOffset } from "./group-membership";
import { PartitionUnavailableError } from "./kafka-client-errors";
import { RETRIABLE_CODES } from "./retriable-error-codes";

/** ListOffsets' timestamps that name a position instead of a time. */
export const EARLIEST = -2n;
export const LATEST = -1n;

/** `partitions` by the address of their leader, then by topic; a partition without a known leader is a PartitionUnavailableError. */
export function partitionsByLeader(metadata: ClusterMetadata, partitions: Readonly<Record<string, readonly number[]>>): Map<string, Map<string, number[]>> {
  const byLeader = new Map<string, Map<string, number[]>>();
  for (const [topic, list] of Object.entries(partitions)) {
    for (const partition of list) {
      const route = metadata.route(topic, partition);
      if (route.address === null) throw new PartitionUnavailableError(topic, partition, route.errorCode, "no leader known for");
      const topics = byLeader.get(route.address) ?? new Map<string, number[]>();
      topics.set(topic, [...(topics.get(topic) ?? []), partition]);
      byLeader.set(route.address, topics);
    }
  }
  return byLeader;
}

/**
 * The offset at `timestamp` (EARLIEST, LATEST) of each partition, from its leader, under the isolation level's id
 * (read_committed's latest is the last stable offset). A retriable error is a PartitionUnavailableError: refresh the
 * metadata and ask again.
 */
export async function offsetsAt(
  metadata: ClusterMetadata,
  pool: ConnectionPool,
  partitions: Readonly<Record<string, readonly number[]>>,
  timestamp: bigint,
  isolationLevel: number,
): Promise<TopicPartitionOffset[]> {
  const which = timestamp === EARLIEST ? "earliest offset of" : timestamp === LATEST ? "latest offset of" : `offset at ${timestamp} of`;
  const found: TopicPartitionOffset[] = [];
  for (const [address, topics] of partitionsByLeader(metadata, partitions)) {
    const answer = await (await pool.get(address)).request(LIST_OFFSETS, {
      replicaId: -1,
      isolationLevel,
      topics: [...topics].map(([name, list]) => ({ name, partitions: list.map((partitionIndex) => ({ partitionIndex, timestamp })) })),
    });
    for (const topic of answer.topics) {
      for (const partition of topic.partitions) {
        if (RETRIABLE_CODES.has(partition.errorCode)) throw new PartitionUnavailableError(topic.name, partition.partitionIndex, partition.errorCode, which);
        if (partition.errorCode !== 0) throw new Error(`${which} topic ${topic.name} partition ${partition.partitionIndex}: ${errorCodeName(partition.errorCode)}`);
        found.push({ topic: topic.name, partition: partition.partitionIndex, offset: Number(partition.offset) });
      }
    }
  }
  return found;
}
