/** A member of a consumer group as the coordinator tracks it, with its outstanding JoinGroup / SyncGroup answers. */
import type { GroupProtocol, JoinGroupResult, SyncGroupResult } from "./group-coordinator";

export type JoinAnswer = (result: JoinGroupResult) => void;
export type SyncAnswer = (result: SyncGroupResult) => void;

export interface GroupMember {
  memberId: string;
  readonly groupInstanceId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  protocolType: string;
  /** In the member's order of preference. */
  protocols: GroupProtocol[];
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  assignment: Buffer;
  /** Set while the member's JoinGroup waits for the join phase to complete. */
  awaitingJoin: JoinAnswer | null;
  /** Set while the member's SyncGroup waits for the leader's assignment. */
  awaitingSync: SyncAnswer | null;
  /** Joined during the current rebalance and has not yet received a generation. */
  isNew: boolean;
}

/** Same protocols, in the same order, with the same metadata bytes. */
export function sameProtocols(member: GroupMember, protocols: GroupProtocol[]): boolean {
  return (
    member.protocols.length === protocols.length &&
    member.protocols.every((p, i) => p.name === protocols[i].name && p.metadata.equals(protocols[i].metadata))
  );
}

export function metadataFor(member: GroupMember, protocolName: string): Buffer {
  const protocol = member.protocols.find((p) => p.name === protocolName);
  if (protocol === undefined) throw new Error(`member ${member.memberId} does not support protocol ${protocolName}`);
  return protocol.metadata;
}
