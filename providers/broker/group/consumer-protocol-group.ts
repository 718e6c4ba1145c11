/**
 * One group of the consumer group protocol (KIP-848) and its members, and how a member moves toward its target
 * assignment (Kafka's CurrentAssignmentBuilder): the group epoch counts changes of membership, subscriptions and
 * topics; the target assignment is the assignor's answer at some group epoch; each member reaches it in steps. A member
 * first gives up what it must (it keeps its epoch meanwhile), then takes the new epoch and the partitions of its target
 * that no other member still holds; those it gets once their old owners have let them go. No timers: the coordinator
 * drives it.
 */

export type MemberState = "stable" | "unrevoked" | "unreleased";
/** Kafka's ConsumerGroupState, as DescribeGroups, ListGroups and ConsumerGroupDescribe print it. */
export type ConsumerGroupState = "Empty" | "Assigning" | "Reconciling" | "Stable";

/** A static member that left with epoch -2: its assignment waits for it until its session ends. */
export const STATIC_LEFT_EPOCH = -2;

export interface ConsumerProtocolMember {
  memberId: string;
  instanceId: string | null;
  rackId: string | null;
  clientId: string;
  clientHost: string;
  memberEpoch: number;
  previousMemberEpoch: number;
  state: MemberState;
  /** What the member may own now (partition keys). */
  assigned: Set<string>;
  /** What it must give up before it moves on. */
  revoking: Set<string>;
  subscribedTopicNames: string[];
  serverAssignor: string | null;
  rebalanceTimeoutMs: number;
}

export class ConsumerProtocolGroup {
  groupEpoch = 0;
  targetEpoch = 0;
  readonly members = new Map<string, ConsumerProtocolMember>();
  /** Member id → its target assignment at `targetEpoch`. */
  target = new Map<string, Set<string>>();
  /** The assignor of the last target assignment. */
  assignorName: string | null = null;
  /** The subscribed topics' ids and partition counts at the last group epoch: a change bumps it. */
  topicsSignature = "";
  private readonly staticMembers = new Map<string, string>();

  constructor(readonly groupId: string) {}

  get state(): ConsumerGroupState {
    if (this.members.size === 0) return "Empty";
    if (this.targetEpoch < this.groupEpoch) return "Assigning";
    const reconciled = [...this.members.values()].every((member) => member.state === "stable" && member.memberEpoch === this.targetEpoch);
    return reconciled ? "Stable" : "Reconciling";
  }

  staticMemberId(instanceId: string): string | undefined {
    return this.staticMembers.get(instanceId);
  }

  add(member: ConsumerProtocolMember): void {
    this.members.set(member.memberId, member);
    if (member.instanceId !== null) this.staticMembers.set(member.instanceId, member.memberId);
  }

  remove(memberId: string): void {
    const member = this.members.get(memberId);
    if (member === undefined) return;
    this.members.delete(memberId);
    this.target.delete(memberId);
    if (member.instanceId !== null && this.staticMembers.get(member.instanceId) === memberId) this.staticMembers.delete(member.instanceId);
  }

  /** Whether a member other than `memberId` still holds the partition (owns it, or has not given it up yet). */
  heldByOther(memberId: string, key: string): boolean {
    for (const member of this.members.values()) {
      if (member.memberId !== memberId && (member.assigned.has(key) || member.revoking.has(key))) return true;
    }
    return false;
  }

  /**
   * One step of the member toward its target. `reported`: the partitions the member says it owns (null: not said).
   * A member giving partitions up moves on once it reports none of them.
   */
  reconcile(member: ConsumerProtocolMember, reported: ReadonlySet<string> | null): void {
    if (member.state === "unrevoked") {
      if (reported === null || [...member.revoking].some((key) => reported.has(key))) return;
      member.revoking.clear();
    } else if (member.state === "stable" && member.memberEpoch === this.targetEpoch) {
      return;
    }
    const target = this.target.get(member.memberId) ?? new Set<string>();
    const kept = new Set([...member.assigned].filter((key) => target.has(key)));
    const revoked = [...member.assigned].filter((key) => !target.has(key));
    if (revoked.length > 0) {
      member.assigned = kept;
      member.revoking = new Set(revoked);
      member.state = "unrevoked";
      return;
    }
    for (const key of target) if (!kept.has(key) && !this.heldByOther(member.memberId, key)) kept.add(key);
    member.assigned = kept;
    if (member.memberEpoch !== this.targetEpoch) {
      member.previousMemberEpoch = member.memberEpoch;
      member.memberEpoch = this.targetEpoch;
    }
    member.state = kept.size === target.size ? "stable" : "unreleased";
  }
}
