/**
 * The consumer-group coordinator contract, shaped after Kafka's JoinGroup / SyncGroup / Heartbeat /
 * LeaveGroup / DescribeGroups / ListGroups / OffsetCommit semantics. The wire handlers translate protocol
 * messages to these calls; the coordinator knows nothing of the wire.
 */
import type { ErrorCodeValue } from "../../kafka-protocol/error-codes";
import type { StoredGroup } from "../storage/log-store";

export interface GroupProtocol {
  name: string;
  metadata: Buffer;
}

export interface JoinGroupRequest {
  groupId: string;
  sessionTimeoutMs: number;
  /** -1 when the client's version has none: then the session timeout is used. */
  rebalanceTimeoutMs: number;
  /** "" for a member joining for the first time. */
  memberId: string;
  groupInstanceId: string | null;
  protocolType: string;
  protocols: GroupProtocol[];
  clientId: string;
  clientHost: string;
  /** JoinGroup v4+: a new member first gets MEMBER_ID_REQUIRED with its assigned id, then joins with it. */
  requireKnownMemberId: boolean;
}

export interface JoinGroupMember {
  memberId: string;
  groupInstanceId: string | null;
  metadata: Buffer;
}

export interface JoinGroupResult {
  errorCode: ErrorCodeValue;
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
  leader: string;
  memberId: string;
  /** Filled for the leader only, each with the metadata of the chosen protocol; empty for followers. */
  members: JoinGroupMember[];
}

export interface SyncGroupRequest {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
  /** Sent by the leader only. */
  assignments: { memberId: string; assignment: Buffer }[];
}

export interface SyncGroupResult {
  errorCode: ErrorCodeValue;
  assignment: Buffer;
}

export interface MemberRef {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
}

/** Who leaves in a LeaveGroup: a member by id, or (v3+) a static member by its instance id, with "" for an unknown id. */
export interface MemberIdentity {
  memberId: string;
  groupInstanceId: string | null;
}

export type GroupState = "Empty" | "PreparingRebalance" | "CompletingRebalance" | "Stable" | "Dead";

export interface DescribedMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  metadata: Buffer;
  assignment: Buffer;
}

export interface DescribedGroup {
  errorCode: ErrorCodeValue;
  groupId: string;
  groupState: GroupState;
  protocolType: string;
  protocolData: string;
  members: DescribedMember[];
}

/** The groups of the other protocol (classic or consumer, KIP-848), which share the group id namespace. */
export interface ForeignGroups {
  /** none: no such group; empty: a group without members (it may give way); active: one with members. */
  stateOf(groupId: string): "none" | "empty" | "active";
  /** Forgets an empty group, so that a group of the other type takes its id. */
  remove(groupId: string): void;
}

export interface GroupCoordinator {
  /** Resolves when the join phase completes (all known members rejoined, or the rebalance timeout passed). */
  join(request: JoinGroupRequest): Promise<JoinGroupResult>;
  /** Followers' promises resolve when the leader's assignment arrives. */
  sync(request: SyncGroupRequest): Promise<SyncGroupResult>;
  /** NONE, or REBALANCE_IN_PROGRESS / UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION. Resets the session timer. */
  heartbeat(member: MemberRef): ErrorCodeValue;
  /**
   * Per member, in order: NONE, UNKNOWN_MEMBER_ID, or FENCED_INSTANCE_ID when the instance id is bound to another
   * member id than the one given. A static member may be named by its instance id alone (memberId "").
   */
  leave(groupId: string, members: MemberIdentity[]): (MemberIdentity & { errorCode: ErrorCodeValue })[];
  describe(groupIds: string[]): DescribedGroup[];
  /**
   * DeleteGroups, for the group's state: NONE when it was Empty and is gone now; GROUP_ID_NOT_FOUND when the
   * coordinator does not know it; NON_EMPTY_GROUP while it has members; INVALID_GROUP_ID, COORDINATOR_NOT_AVAILABLE.
   */
  deleteGroup(groupId: string): ErrorCodeValue;
  list(): { groupId: string; protocolType: string; groupState: GroupState }[];
  /**
   * The groups the offset store holds committed offsets of when the broker starts, as Kafka loads them from its
   * offsets topic: each is an Empty group until members join it, so it is listed, described, reset and deleted.
   * A group with stored membership takes up its stored generation, Stable with its members, whose sessions start
   * now: a member that comes back heartbeats on in that generation; one that does not expires after its session.
   * A group the consumer group protocol's coordinator took up is left to it.
   */
  loadGroups(groupIds: readonly string[], stored?: readonly StoredGroup[]): void;
  /**
   * May this member commit offsets now? generationId -1 with memberId "" is a simple (non-group) commit
   * and is allowed when the group has no members. Returns NONE or the error code a real broker returns.
   */
  validateOffsetCommit(member: MemberRef): ErrorCodeValue;
  /** Cancels timers and fails pending joins/syncs with COORDINATOR_NOT_AVAILABLE. */
  close(): void;
}
