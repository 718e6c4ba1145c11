/** A group's committed offsets, asked of its coordinator (OffsetFetch): what a member and the cluster admin read. */
import { ErrorCode } from "../kafka-protocol";
import type { BrokerConnection } from "./broker-connection";
import { OFFSET_FETCH } from "./client-apis";
import type { TopicPartitionOffset } from "./group-membership";
import { GroupError } from "./kafka-client-errors";

/** How one OffsetFetch is asked. */
export interface CommittedOffsetsRequest {
  /** Error codes worth asking again for (the coordinator moved or is loading). */
  retriable: (errorCode: number) => boolean;
  /**
   * Only offsets no open transaction is committing (KIP-447; OffsetFetch v7): a partition the coordinator answers
   * UNSTABLE_OFFSET_COMMIT for is asked again, after `onUnstable` heard which.
   */
  requireStable?: boolean;
  onUnstable?: (partition: string) => void;
}

/**
 * One OffsetFetch of `partitions` (-1 where the group has no offset), each with the metadata committed with it.
 * Undefined when the answer is worth asking again: an error code `retriable` accepts, or (requireStable) a partition
 * an open transaction commits. Other errors are a GroupError; requireStable of a coordinator older than OffsetFetch
 * v7 (Kafka 2.5) is an Error, since it would hand out offsets a transaction is about to move on.
 */
export async function fetchCommittedOffsets(
  coordinator: BrokerConnection,
  groupId: string,
  partitions: Readonly<Record<string, readonly number[]>>,
  { retriable, requireStable = false, onUnstable }: CommittedOffsetsRequest,
): Promise<TopicPartitionOffset[] | undefined> {
  const topics = Object.entries(partitions).map(([name, partitionIndexes]) => ({ name, partitionIndexes: [...partitionIndexes] }));
  if (topics.length === 0) return [];
  if (requireStable && coordinator.versionOf(OFFSET_FETCH) < 7) {
    throw new Error(`group ${groupId}: reading committed offsets read_committed needs OffsetFetch v7 (Kafka 2.5 or later); the coordinator offers v${coordinator.versionOf(OFFSET_FETCH)}`);
  }
  const answer = await coordinator.request(OFFSET_FETCH, { groupId, topics, requireStable });
  if (retriable(answer.errorCode)) return undefined;
  if (answer.errorCode !== 0) throw new GroupError(groupId, "OffsetFetch", answer.errorCode);
  const offsets: TopicPartitionOffset[] = [];
  let again = false;
  let unstable: string | undefined;
  for (const topic of answer.topics) {
    for (const partition of topic.partitions) {
      if (retriable(partition.errorCode)) again = true;
      else if (requireStable && partition.errorCode === ErrorCode.UNSTABLE_OFFSET_COMMIT) unstable ??= `${topic.name} partition ${partition.partitionIndex}`;
      else if (partition.errorCode !== 0) throw new GroupError(groupId, `OffsetFetch of ${topic.name} partition ${partition.partitionIndex}`, partition.errorCode);
      offsets.push({ topic: topic.name, partition: partition.partitionIndex, offset: Number(partition.committedOffset), metadata: partition.metadata });
    }
  }
  if (unstable !== undefined) onUnstable?.(unstable);
  return again || unstable !== undefined ? undefined : offsets;
}
