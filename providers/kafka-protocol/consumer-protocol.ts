/**
 * The consumer protocol every Kafka consumer speaks inside its group's JoinGroup and SyncGroup, whatever its
 * assignor: a member's subscription (its topics, and user data for the assignor) and its assignment (partitions
 * by topic). Sluice writes version 0, which holds all its eager rebalances need, and version 1 (with the partitions
 * the member keeps) under the cooperative protocol; it reads every version.
 */
import { DataCodec, type DecodedDataOf } from "./data-codec";
import { MalformedMessageError } from "./malformed-message-error";
import { ConsumerProtocolAssignment } from "./messages/consumer-protocol-assignment";
import { ConsumerProtocolSubscription } from "./messages/consumer-protocol-subscription";

const SUBSCRIPTION = new DataCodec(ConsumerProtocolSubscription);
const ASSIGNMENT = new DataCodec(ConsumerProtocolAssignment);
const WRITTEN_VERSION = 0;
/** The first version with ownedPartitions. */
const COOPERATIVE_VERSION = 1;

export type Subscription = DecodedDataOf<typeof ConsumerProtocolSubscription>;

/** `owned`: under the cooperative protocol (KIP-429), the partitions the member keeps through the rebalance. */
export function encodeSubscription(topics: readonly string[], userData: Buffer | null, owned?: Readonly<Record<string, readonly number[]>>): Buffer {
  if (owned === undefined) return SUBSCRIPTION.encode(WRITTEN_VERSION, { topics: [...topics], userData });
  const ownedPartitions = Object.entries(owned).map(([topic, list]) => ({ topic, partitions: [...list] }));
  return SUBSCRIPTION.encode(COOPERATIVE_VERSION, { topics: [...topics], userData, ownedPartitions });
}

/**
 * A member's subscription; throws MalformedMessageError when it cannot be read. kafkajs's AssignerProtocol writes
 * the version it is given over the version-0 fields (as Sluice did before this package), so bytes that do not hold
 * their declared version are read as version 0 when they hold exactly that.
 */
export function decodeSubscription(bytes: Buffer): Subscription {
  try {
    return SUBSCRIPTION.decode(bytes);
  } catch (error) {
    if (!(error instanceof MalformedMessageError) || bytes.length < 2 || bytes.readInt16BE(0) <= 0) throw error;
    return SUBSCRIPTION.decodeAs(bytes, 0);
  }
}

export function encodeAssignment(partitions: Readonly<Record<string, readonly number[]>>, userData: Buffer | null = null): Buffer {
  const assignedPartitions = Object.entries(partitions).map(([topic, list]) => ({ topic, partitions: [...list] }));
  return ASSIGNMENT.encode(WRITTEN_VERSION, { assignedPartitions, userData });
}

/** The user data of an assignment (what the assignor added for the member); null without any. */
export function decodeAssignmentUserData(bytes: Buffer): Buffer | null {
  return bytes.length === 0 ? null : ASSIGNMENT.decode(bytes).userData;
}

/**
 * The partitions of an assignment, by topic; throws MalformedMessageError when it cannot be read. No bytes at all
 * (what the coordinator holds for a member the leader gave nothing) are no partitions.
 */
export function decodeAssignment(bytes: Buffer): Record<string, number[]> {
  const partitions: Record<string, number[]> = {};
  if (bytes.length === 0) return partitions;
  for (const { topic, partitions: list } of ASSIGNMENT.decode(bytes).assignedPartitions) (partitions[topic] ??= []).push(...list);
  return partitions;
}
