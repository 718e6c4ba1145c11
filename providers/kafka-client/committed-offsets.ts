/** A group's committed offsets, asked of its coordinator (OffsetFetch): what a member and the cluster admin read. */
import type { BrokerConnection } from "./broker-connection";
import { OFFSET_FETCH } from "./client-apis";
import type { TopicPartitionOffset } from "./group-membership";
import { GroupError } from "./kafka-client-errors";

/**
 * One OffsetFetch of `partitions` (-1 where the group has no offset). Undefined when `retriable` says an error
 * code of the answer is worth asking again (the coordinator moved or is loading); other errors are a GroupError.
 */
export async function fetchCommittedOffsets(
  coordinator: BrokerConnection,
  groupId: string,
  partitions: Readonly<Record<string, readonly number[]>>,
  retriable: (errorCode: number) => boolean,
): Promise<TopicPartitionOffset[] | undefined> {
  const topics = Object.entries(partitions).map(([name, partitionIndexes]) => ({ name, partitionIndexes: [...partitionIndexes] }));
  if (topics.length === 0) return [];
  const answer = await coordinator.request(OFFSET_FETCH, { groupId, topics });
  if (retriable(answer.errorCode)) return undefined;
  if (answer.errorCode !== 0) throw new GroupError(groupId, "OffsetFetch", answer.errorCode);
  const offsets: TopicPartitionOffset[] = [];
  let again = false;
  for (const topic of answer.topics) {
    for (const partition of topic.partitions) {
      if (retriable(partition.errorCode)) again = true;
      else if (partition.errorCode !== 0) throw new GroupError(groupId, `OffsetFetch of ${topic.name} partition ${partition.partitionIndex}`, partition.errorCode);
      offsets.push({ topic: topic.name, partition: partition.partitionIndex, offset: Number(partition.committedOffset), metadata: partition.metadata });
    }
  }
  return again ? undefined : offsets;
}
