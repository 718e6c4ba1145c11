/**
 * The state of one consumer group: its members, leader, generation and chosen protocol, and the
 * transitions between Kafka's group states. No timers and no request handling: the coordinator drives it.
 */
import type { GroupProtocol, GroupState, JoinGroupMember } from "./group-coordinator";
import { metadataFor, type GroupMember } from "./group-member";
import { commonProtocols, selectProtocol } from "./protocol-selection";

/** The states a group may be in before entering each state (Kafka's validPreviousStates). */
const PREVIOUS_STATES: Record<GroupState, readonly GroupState[]> = {
  Empty: ["PreparingRebalance"],
  PreparingRebalance: ["Stable", "CompletingRebalance", "Empty"],
  CompletingRebalance: ["PreparingRebalance"],
  Stable: ["CompletingRebalance"],
  Dead: ["Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead"],
};

export class ConsumerGroup {
  private currentState: GroupState = "Empty";
  generationId = 0;
  protocolType: string | null = null;
  protocolName: string | null = null;
  leaderId: string | null = null;
  /** Members in join order: the leader falls back to the earliest remaining one. */
  readonly members = new Map<string, GroupMember>();
  /** Ids handed out with MEMBER_ID_REQUIRED whose owners have not joined with them yet (KIP-394). */
  readonly pendingMemberIds = new Set<string>();
  /** Members of the current generation that have not sent SyncGroup yet. */
  readonly pendingSyncMemberIds = new Set<string>();
  /** Set when a member joins during the initial delayed rebalance, which then waits once more. */
  newMemberAdded = false;
  private readonly staticMemberIds = new Map<string, string>();

  constructor(readonly groupId: string) {}

  get state(): GroupState {
    return this.currentState;
  }

  is(...states: GroupState[]): boolean {
    return states.includes(this.currentState);
  }

  transitionTo(next: GroupState): void {
    if (!PREVIOUS_STATES[next].includes(this.currentState)) {
      throw new Error(`group ${this.groupId} cannot go from ${this.currentState} to ${next}`);
    }
    this.currentState = next;
  }

  /**
   * Takes the generation a broker stored before it stopped: Stable with its members, or Empty. Used only on a
   * fresh group, when the coordinator loads.
   */
  restore(generationId: number, protocolType: string, protocolName: string | null, members: GroupMember[], leaderId: string | null): void {
    this.generationId = generationId;
    this.protocolType = protocolType;
    for (const member of members) this.add(member);
    if (members.length === 0) return;
    this.protocolName = protocolName;
    if (leaderId !== null && this.members.has(leaderId)) this.leaderId = leaderId;
    this.currentState = "Stable";
  }

  get(memberId: string): GroupMember | undefined {
    return this.members.get(memberId);
  }

  isLeader(memberId: string): boolean {
    return this.leaderId === memberId;
  }

  add(member: GroupMember): void {
    if (this.members.size === 0) this.protocolType = member.protocolType;
    this.members.set(member.memberId, member);
    this.pendingMemberIds.delete(member.memberId);
    if (member.groupInstanceId !== null) this.staticMemberIds.set(member.groupInstanceId, member.memberId);
    if (this.leaderId === null) this.leaderId = member.memberId;
  }

  remove(memberId: string): void {
    const member = this.members.get(memberId);
    if (member === undefined) return;
    this.members.delete(memberId);
    this.pendingSyncMemberIds.delete(memberId);
    if (member.groupInstanceId !== null && this.staticMemberIds.get(member.groupInstanceId) === memberId) {
      this.staticMemberIds.delete(member.groupInstanceId);
    }
    if (this.isLeader(memberId)) this.leaderId = this.members.keys().next().value ?? null;
  }

  /** The member id currently bound to a static instance id (KIP-345). */
  staticMemberId(groupInstanceId: string): string | undefined {
    return this.staticMemberIds.get(groupInstanceId);
  }

  /** Gives a static member a new member id, keeping its place as leader and its assignment. */
  replaceStaticMember(groupInstanceId: string, oldMemberId: string, newMemberId: string): GroupMember {
    const member = this.members.get(oldMemberId);
    if (member === undefined) throw new Error(`static member ${oldMemberId} is not in group ${this.groupId}`);
    this.members.delete(oldMemberId);
    member.memberId = newMemberId;
    this.members.set(newMemberId, member);
    this.staticMemberIds.set(groupInstanceId, newMemberId);
    if (this.isLeader(oldMemberId)) this.leaderId = newMemberId;
    if (this.pendingSyncMemberIds.delete(oldMemberId)) this.pendingSyncMemberIds.add(newMemberId);
    return member;
  }

  /**
   * Could a member with these protocols be part of the group? Any non-empty offer fits an empty group;
   * otherwise the type must match and one protocol must be supported by every other member.
   */
  supportsProtocols(protocolType: string, protocols: GroupProtocol[], joiningMemberId: string): boolean {
    const others = [...this.members.values()].filter((m) => m.memberId !== joiningMemberId);
    if (others.length === 0) return protocolType !== "" && protocols.length > 0;
    if (this.protocolType !== protocolType) return false;
    return commonProtocols([protocols, ...others.map((m) => m.protocols)]).length > 0;
  }

  hasAllMembersJoined(): boolean {
    return this.pendingMemberIds.size === 0 && [...this.members.values()].every((m) => m.awaitingJoin !== null);
  }

  notYetRejoined(): GroupMember[] {
    return [...this.members.values()].filter((m) => m.awaitingJoin === null);
  }

  /** The longest rebalance timeout any member asked for: how long a join phase may wait. */
  rebalanceTimeoutMs(): number {
    let longest = 0;
    for (const member of this.members.values()) longest = Math.max(longest, member.rebalanceTimeoutMs);
    return longest;
  }

  /** Keeps the leader if it rejoined, else hands leadership to a member that did; false when none did. */
  electJoinedLeader(): boolean {
    const leader = this.leaderId === null ? undefined : this.members.get(this.leaderId);
    if (leader?.awaitingJoin) return true;
    const joined = [...this.members.values()].find((m) => m.awaitingJoin !== null);
    if (joined === undefined) return false;
    this.leaderId = joined.memberId;
    return true;
  }

  initNextGeneration(): void {
    this.generationId += 1;
    if (this.members.size > 0) {
      this.protocolName = selectProtocol([...this.members.values()].map((m) => m.protocols));
      this.transitionTo("CompletingRebalance");
    } else {
      this.protocolName = null;
      this.transitionTo("Empty");
    }
  }

  /** What the leader receives to compute the assignment: every member's metadata for the chosen protocol. */
  memberMetadata(): JoinGroupMember[] {
    const protocolName = this.requireProtocolName();
    return [...this.members.values()].map((m) => ({
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      metadata: metadataFor(m, protocolName),
    }));
  }

  requireProtocolName(): string {
    if (this.protocolName === null) throw new Error(`group ${this.groupId} has no protocol in state ${this.state}`);
    return this.protocolName;
  }
}
