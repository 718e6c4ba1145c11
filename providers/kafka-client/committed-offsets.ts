/**
 * A group's committed offsets, asked of its coordinator (OffsetFetch): what a member and the cluster admin read; and a
 * member's commit of them (OffsetCommit), whichever group protocol it speaks.
 */
import { ErrorCode } from "../kafka-protocol";
import type { ComponentLogger } from "../../kernel/logger";
import type { BrokerConnection } from "./broker-connection";
import { OFFSET_COMMIT, OFFSET_FETCH } from "./client-apis";
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

/**
 * A member's committed offsets of `partitions` (-1 where the group has none), asked of its coordinator until
 * answered: after a backoff when it moved, and with requireStable until no open transaction commits them.
 */
export async function committedOffsetsOf(
  coordinator: () => Promise<BrokerConnection>,
  groupId: string,
  partitions: Readonly<Record<string, readonly number[]>>,
  options: { retriable: (errorCode: number) => boolean; requireStable?: boolean; retryBackoffMs: number; logger?: ComponentLogger },
): Promise<TopicPartitionOffset[]> {
  const requireStable = options.requireStable ?? false;
  let waitReported = false;
  const onUnstable = (partition: string) => {
    if (waitReported) return;
    waitReported = true;
    options.logger?.info("waiting for an open transaction to end before taking over its offsets", { groupId, partition });
  };
  for (;;) {
    const offsets = await fetchCommittedOffsets(await coordinator(), groupId, partitions, { retriable: options.retriable, requireStable, onUnstable });
    if (offsets !== undefined) return offsets;
    await new Promise((resolve) => setTimeout(resolve, options.retryBackoffMs));
  }
}

/** Who commits: the member's generation (classic) or member epoch (consumer protocol) travels as generationId. */
export interface CommittingMember {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
}

/** How one OffsetCommit's partition errors are taken. */
export interface OffsetCommitHandling {
  /** Error codes worth committing again for (the coordinator moved or is loading). */
  retriable: (errorCode: number) => boolean;
  /** Codes that mean the member no longer owns what it commits; `over` hears the first. Others are a GroupError. */
  memberGone: ReadonlySet<number>;
  over: (errorCode: number) => void;
  /** The lowest OffsetCommit version the group accepts this member's commits in. */
  minVersion?: number;
}

/**
 * One OffsetCommit of `offsets` (each the next offset to read) as `member`. False when some partition was not
 * committed (the member is gone, or the coordinator moved).
 */
export async function commitOffsets(coordinator: BrokerConnection, member: CommittingMember, offsets: readonly TopicPartitionOffset[], handling: OffsetCommitHandling): Promise<boolean> {
  const version = coordinator.versionOf(OFFSET_COMMIT);
  if (handling.minVersion !== undefined && version < handling.minVersion) {
    throw new Error(`group ${member.groupId}: its members commit with OffsetCommit v${handling.minVersion} or later; ${coordinator.address} offers v${version}`);
  }
  const byTopic = new Map<string, { partitionIndex: number; committedOffset: bigint; committedMetadata: string | null }[]>();
  for (const { topic, partition, offset, metadata } of offsets) {
    const list = byTopic.get(topic) ?? [];
    list.push({ partitionIndex: partition, committedOffset: BigInt(offset), committedMetadata: metadata ?? null });
    byTopic.set(topic, list);
  }
  const answer = await coordinator.request(OFFSET_COMMIT, { ...member, topics: [...byTopic].map(([name, partitions]) => ({ name, partitions })) }, version);
  let committed = true;
  for (const topic of answer.topics) {
    for (const partition of topic.partitions) {
      const code = partition.errorCode;
      if (code === 0) continue;
      committed = false;
      if (handling.retriable(code)) continue;
      if (handling.memberGone.has(code)) handling.over(code);
      else throw new GroupError(member.groupId, `OffsetCommit of ${topic.name} partition ${partition.partitionIndex}`, code);
    }
  }
  return committed;
}
