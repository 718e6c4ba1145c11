/**
 * Which coordinator admits an offset commit: the consumer group protocol's for its groups (member epochs), the classic
 * one's for every other group (generations, and simple commits that make an Empty classic group).
 */
import type { ErrorCodeValue } from "../../kafka-protocol/error-codes";
import type { ConsumerProtocolCoordinator } from "./consumer-protocol-coordinator";
import type { GroupCoordinator, MemberRef } from "./group-coordinator";

/** `apiVersion`: the OffsetCommit version, or null for a transactional commit (TxnOffsetCommit), which any version may carry. */
export type OffsetCommitAdmission = (member: MemberRef, apiVersion: number | null) => ErrorCodeValue;

export function offsetCommitAdmission(classic: Pick<GroupCoordinator, "validateOffsetCommit">, consumerGroups: ConsumerProtocolCoordinator): OffsetCommitAdmission {
  return (member, apiVersion) => (consumerGroups.has(member.groupId) ? consumerGroups.validateOffsetCommit(member, apiVersion) : classic.validateOffsetCommit(member));
}
