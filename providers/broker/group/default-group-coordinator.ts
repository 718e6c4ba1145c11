/**
 * Kafka's classic group coordinator as a single-node state machine: JoinGroup / SyncGroup / Heartbeat /
 * LeaveGroup handling, the join-phase and session timers, and offset-commit admission. No I/O.
 */
import { randomUUID } from "node:crypto";
import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import type {
  DescribedGroup,
  ForeignGroups,
  GroupCoordinator,
  GroupState,
  JoinGroupRequest,
  JoinGroupResult,
  MemberIdentity,
  MemberRef,
  SyncGroupRequest,
  SyncGroupResult,
} from "./group-coordinator";
import { ConsumerGroup } from "./consumer-group";
import { silentLogger, type ComponentLogger } from "../../../kernel/logger";
import { metadataFor, sameProtocols, type GroupMember, type JoinAnswer, type SyncAnswer } from "./group-member";
import { KeyedTimers } from "./keyed-timers";
import { selectProtocol } from "./protocol-selection";
import type { StoredGroup } from "../storage/log-store";

export interface DefaultGroupCoordinatorOptions {
  logger?: ComponentLogger;
  /** How long the first rebalance of an empty group waits for more members (Kafka's group.initial.rebalance.delay.ms). */
  initialRebalanceDelayMs?: number;
  minSessionTimeoutMs?: number;
  maxSessionTimeoutMs?: number;
  /** How long a new member's JoinGroup may wait for the join phase before it is dropped (Kafka: 5 minutes). */
  newMemberJoinTimeoutMs?: number;
  /** The consumer group protocol's groups (KIP-848), which share the group ids: a group is of one type. */
  consumerGroups?: ForeignGroups;
  /**
   * Keeps a group's membership durably, as Kafka writes GroupMetadata to its offsets topic: called when a
   * generation becomes Stable and when the group empties. What it stored comes back through loadGroups.
   */
  saveGroup?: (group: StoredGroup) => void;
}

const EMPTY = Buffer.alloc(0);

const timerKeys = {
  join: (group: ConsumerGroup) => `join\0${group.groupId}`,
  initialJoin: (group: ConsumerGroup) => `initial-join\0${group.groupId}`,
  pendingSync: (group: ConsumerGroup) => `pending-sync\0${group.groupId}`,
  session: (group: ConsumerGroup, memberId: string) => `session\0${group.groupId}\0${memberId}`,
  pendingMember: (group: ConsumerGroup, memberId: string) => `pending-member\0${group.groupId}\0${memberId}`,
};

function joinError(memberId: string, errorCode: ErrorCodeValue): JoinGroupResult {
  return { errorCode, generationId: -1, protocolType: null, protocolName: null, leader: "", memberId, members: [] };
}

function syncError(errorCode: ErrorCodeValue): SyncGroupResult {
  return { errorCode, assignment: EMPTY };
}

export class DefaultGroupCoordinator implements GroupCoordinator, ForeignGroups {
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly timers = new KeyedTimers();
  private readonly logger: ComponentLogger;
  private readonly initialRebalanceDelayMs: number;
  private readonly minSessionTimeoutMs: number;
  private readonly maxSessionTimeoutMs: number;
  private readonly newMemberJoinTimeoutMs: number;
  private readonly consumerGroups?: ForeignGroups;
  private readonly saveGroup: (group: StoredGroup) => void;
  private closed = false;

  constructor(options: DefaultGroupCoordinatorOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.initialRebalanceDelayMs = options.initialRebalanceDelayMs ?? 0;
    this.minSessionTimeoutMs = options.minSessionTimeoutMs ?? 1000;
    this.maxSessionTimeoutMs = options.maxSessionTimeoutMs ?? 300_000;
    this.newMemberJoinTimeoutMs = options.newMemberJoinTimeoutMs ?? 300_000;
    this.consumerGroups = options.consumerGroups;
    this.saveGroup = options.saveGroup ?? (() => undefined);
  }

  join(request: JoinGroupRequest): Promise<JoinGroupResult> {
    return new Promise((resolve) => this.handleJoin(request, resolve));
  }

  sync(request: SyncGroupRequest): Promise<SyncGroupResult> {
    return new Promise((resolve) => this.handleSync(request, resolve));
  }

  heartbeat(ref: MemberRef): ErrorCodeValue {
    const error = this.groupRequestError(ref.groupId);
    if (error !== ErrorCode.NONE) return error;
    const group = this.groups.get(ref.groupId);
    if (group === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
    const memberError = this.currentMemberError(group, ref);
    if (memberError !== ErrorCode.NONE) return memberError;
    if (ref.generationId !== group.generationId) return ErrorCode.ILLEGAL_GENERATION;
    this.scheduleSession(group, this.memberOf(group, ref.memberId));
    return group.is("PreparingRebalance") ? ErrorCode.REBALANCE_IN_PROGRESS : ErrorCode.NONE;
  }

  leave(groupId: string, members: MemberIdentity[]): (MemberIdentity & { errorCode: ErrorCodeValue })[] {
    const error = this.groupRequestError(groupId);
    const group = this.groups.get(groupId);
    return members.map((identity) => {
      if (error !== ErrorCode.NONE) return { ...identity, errorCode: error };
      return { ...identity, errorCode: group === undefined ? ErrorCode.UNKNOWN_MEMBER_ID : this.leaveMember(group, identity) };
    });
  }

  describe(groupIds: string[]): DescribedGroup[] {
    return groupIds.map((groupId) => {
      const group = this.groups.get(groupId);
      if (this.closed || group === undefined) {
        const errorCode = this.closed ? ErrorCode.COORDINATOR_NOT_AVAILABLE : ErrorCode.NONE;
        return { errorCode, groupId, groupState: "Dead", protocolType: "", protocolData: "", members: [] };
      }
      return this.describeGroup(group);
    });
  }

  deleteGroup(groupId: string): ErrorCodeValue {
    const error = this.groupRequestError(groupId);
    if (error !== ErrorCode.NONE) return error;
    const group = this.groups.get(groupId);
    if (group === undefined) return ErrorCode.GROUP_ID_NOT_FOUND;
    if (!group.is("Empty")) return ErrorCode.NON_EMPTY_GROUP;
    group.transitionTo("Dead");
    this.groups.delete(groupId);
    return ErrorCode.NONE;
  }

  list(): { groupId: string; protocolType: string; groupState: GroupState }[] {
    return [...this.groups.values()].map((group) => ({
      groupId: group.groupId,
      protocolType: group.protocolType ?? "",
      groupState: group.state,
    }));
  }

  stateOf(groupId: string): "none" | "empty" | "active" {
    const group = this.groups.get(groupId);
    if (group === undefined) return "none";
    return group.is("Empty") && group.pendingMemberIds.size === 0 ? "empty" : "active";
  }

  remove(groupId: string): void {
    if (this.stateOf(groupId) !== "empty") return;
    this.groups.get(groupId)!.transitionTo("Dead");
    this.groups.delete(groupId);
  }

  loadGroups(groupIds: readonly string[], stored: readonly StoredGroup[] = []): void {
    for (const saved of stored) this.restoreGroup(saved);
    for (const groupId of groupIds) {
      const isConsumerGroup = (this.consumerGroups?.stateOf(groupId) ?? "none") !== "none";
      if (!this.groups.has(groupId) && !isConsumerGroup) this.groups.set(groupId, new ConsumerGroup(groupId));
    }
  }

  private restoreGroup(saved: StoredGroup): void {
    const group = new ConsumerGroup(saved.groupId);
    const members = saved.members.map(
      (m): GroupMember => ({
        ...m,
        protocolType: saved.protocolType,
        protocols: saved.protocolName === null ? [] : [{ name: saved.protocolName, metadata: m.subscription }],
        awaitingJoin: null,
        awaitingSync: null,
        isNew: false,
      }),
    );
    group.restore(saved.generationId, saved.protocolType, saved.protocolName, members, saved.leaderId);
    this.groups.set(group.groupId, group);
    // Kafka restarts every loaded member's session: one that never comes back is removed and the rest rebalance.
    for (const member of group.members.values()) this.scheduleSession(group, member);
  }

  /** Kafka's GroupMetadata record: the chosen protocol's metadata and the assignment of each member. */
  private storeGroup(group: ConsumerGroup): void {
    const protocolName = group.is("Stable") ? group.requireProtocolName() : null;
    this.saveGroup({
      groupId: group.groupId,
      protocolType: group.protocolType ?? "",
      protocolName,
      generationId: group.generationId,
      leaderId: protocolName === null ? null : group.leaderId,
      members:
        protocolName === null
          ? []
          : [...group.members.values()].map((m) => ({
              memberId: m.memberId,
              groupInstanceId: m.groupInstanceId,
              clientId: m.clientId,
              clientHost: m.clientHost,
              sessionTimeoutMs: m.sessionTimeoutMs,
              rebalanceTimeoutMs: m.rebalanceTimeoutMs,
              subscription: metadataFor(m, protocolName),
              assignment: m.assignment,
            })),
    });
  }

  /**
   * Follows Kafka: a simple commit (generation -1, no member) is admitted while the group has no members and
   * creates the group as Empty when unknown, so it is listed; member commits need the current member and
   * generation, are admitted during PreparingRebalance (the heartbeat tells the member to rejoin) and answered
   * REBALANCE_IN_PROGRESS during CompletingRebalance.
   */
  validateOffsetCommit(ref: MemberRef): ErrorCodeValue {
    if (this.closed) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    const isSimpleCommit = ref.generationId < 0 && ref.memberId === "" && ref.groupInstanceId === null;
    const group = this.groups.get(ref.groupId);
    if (group === undefined) {
      if (ref.generationId >= 0) return ErrorCode.ILLEGAL_GENERATION;
      if (!isSimpleCommit) return ErrorCode.UNKNOWN_MEMBER_ID;
      this.groups.set(ref.groupId, new ConsumerGroup(ref.groupId));
      return ErrorCode.NONE;
    }
    if (isSimpleCommit) return group.is("Empty") ? ErrorCode.NONE : ErrorCode.UNKNOWN_MEMBER_ID;
    const memberError = this.currentMemberError(group, ref);
    if (memberError !== ErrorCode.NONE) return memberError;
    if (ref.generationId !== group.generationId) return ErrorCode.ILLEGAL_GENERATION;
    if (group.is("CompletingRebalance")) return ErrorCode.REBALANCE_IN_PROGRESS;
    this.scheduleSession(group, this.memberOf(group, ref.memberId));
    return ErrorCode.NONE;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.timers.cancelAll();
    for (const group of this.groups.values()) {
      for (const member of group.members.values()) {
        this.answerJoin(member, joinError(member.memberId, ErrorCode.COORDINATOR_NOT_AVAILABLE));
        this.answerSync(member, syncError(ErrorCode.COORDINATOR_NOT_AVAILABLE));
      }
    }
    this.groups.clear();
  }

  // --- JoinGroup ---

  private handleJoin(request: JoinGroupRequest, answer: JoinAnswer): void {
    const error = this.joinRequestError(request);
    if (error !== ErrorCode.NONE) return answer(joinError(request.memberId, error));
    // Kafka's answer when it does not migrate a consumer protocol group with members to the classic protocol.
    const consumerGroup = this.consumerGroups?.stateOf(request.groupId) ?? "none";
    if (consumerGroup === "active") return answer(joinError(request.memberId, ErrorCode.GROUP_ID_NOT_FOUND));
    if (consumerGroup === "empty") this.consumerGroups!.remove(request.groupId);
    const isNewMember = request.memberId === "";
    const existing = this.groups.get(request.groupId);
    if (existing === undefined && !isNewMember) return answer(joinError(request.memberId, ErrorCode.UNKNOWN_MEMBER_ID));
    const group = existing ?? new ConsumerGroup(request.groupId);
    this.groups.set(request.groupId, group);
    if (isNewMember) this.joinNewMember(group, request, answer);
    else this.joinKnownMember(group, request, answer);
    if (existing === undefined && group.members.size === 0 && group.pendingMemberIds.size === 0) {
      // A first join that was refused leaves no group behind.
      this.groups.delete(group.groupId);
    }
    this.tryCompleteJoin(group);
  }

  private joinRequestError(request: JoinGroupRequest): ErrorCodeValue {
    const error = this.groupRequestError(request.groupId);
    if (error !== ErrorCode.NONE) return error;
    const { sessionTimeoutMs } = request;
    if (sessionTimeoutMs < this.minSessionTimeoutMs || sessionTimeoutMs > this.maxSessionTimeoutMs) {
      return ErrorCode.INVALID_SESSION_TIMEOUT;
    }
    return ErrorCode.NONE;
  }

  private joinNewMember(group: ConsumerGroup, request: JoinGroupRequest, answer: JoinAnswer): void {
    const replacedId = request.groupInstanceId === null ? "" : group.staticMemberId(request.groupInstanceId) ?? "";
    if (!group.supportsProtocols(request.protocolType, request.protocols, replacedId)) {
      return answer(joinError("", ErrorCode.INCONSISTENT_GROUP_PROTOCOL));
    }
    const memberId = `${request.clientId}-${randomUUID()}`;
    if (request.groupInstanceId !== null) return this.joinStaticMember(group, memberId, request, answer);
    if (request.requireKnownMemberId) {
      group.pendingMemberIds.add(memberId);
      this.timers.set(timerKeys.pendingMember(group, memberId), request.sessionTimeoutMs, () =>
        this.removePendingMember(group, memberId),
      );
      return answer(joinError(memberId, ErrorCode.MEMBER_ID_REQUIRED));
    }
    this.addMemberAndRebalance(group, memberId, request, answer);
  }

  private joinKnownMember(group: ConsumerGroup, request: JoinGroupRequest, answer: JoinAnswer): void {
    const { memberId } = request;
    if (!group.supportsProtocols(request.protocolType, request.protocols, memberId)) {
      return answer(joinError(memberId, ErrorCode.INCONSISTENT_GROUP_PROTOCOL));
    }
    if (request.groupInstanceId === null && group.pendingMemberIds.has(memberId)) {
      return this.addMemberAndRebalance(group, memberId, request, answer);
    }
    const memberError = this.currentMemberError(group, request);
    if (memberError !== ErrorCode.NONE) return answer(joinError(memberId, memberError));
    const member = this.memberOf(group, memberId);
    const unchanged = sameProtocols(member, request.protocols);
    // A follower rejoining with what it had gets the current generation back; anything else is a rebalance.
    const answerCurrent =
      (group.is("CompletingRebalance") && unchanged) || (group.is("Stable") && unchanged && !group.isLeader(memberId));
    if (!answerCurrent) return this.updateMemberAndRebalance(group, member, request, answer);
    this.scheduleSession(group, member);
    answer(this.joinResult(group, member));
  }

  /** KIP-345: a static member joining without its member id takes over its instance's membership. */
  private joinStaticMember(group: ConsumerGroup, newMemberId: string, request: JoinGroupRequest, answer: JoinAnswer): void {
    const groupInstanceId = request.groupInstanceId as string;
    const oldMemberId = group.staticMemberId(groupInstanceId);
    if (oldMemberId === undefined) return this.addMemberAndRebalance(group, newMemberId, request, answer);
    const member = this.memberOf(group, oldMemberId);
    this.answerJoin(member, joinError(oldMemberId, ErrorCode.FENCED_INSTANCE_ID));
    this.answerSync(member, syncError(ErrorCode.FENCED_INSTANCE_ID));
    this.timers.cancel(timerKeys.session(group, oldMemberId));
    group.replaceStaticMember(groupInstanceId, oldMemberId, newMemberId);
    this.updateMember(member, request, answer);
    this.scheduleSession(group, member);
    this.logger.info("static member rejoined with a new member id", {
      groupId: group.groupId,
      groupInstanceId,
      oldMemberId,
      newMemberId,
    });
    if (group.is("CompletingRebalance")) return this.prepareRebalance(group, "static member replaced while completing a rebalance");
    if (!group.is("Stable")) return;
    const nextProtocol = selectProtocol([...group.members.values()].map((m) => m.protocols));
    if (nextProtocol !== group.protocolName) return this.prepareRebalance(group, "static member changed the group protocol");
    // Its assignment is unchanged: it only needs its new id, so no one else is disturbed. The stored group takes the
    // new id too (Kafka writes it before answering): after a broker restart the old one would fence this member.
    this.storeGroup(group);
    this.answerJoin(member, this.joinResult(group, member, false));
  }

  private addMemberAndRebalance(group: ConsumerGroup, memberId: string, request: JoinGroupRequest, answer: JoinAnswer): void {
    const member: GroupMember = {
      memberId,
      groupInstanceId: request.groupInstanceId,
      clientId: request.clientId,
      clientHost: request.clientHost,
      protocolType: request.protocolType,
      protocols: [],
      sessionTimeoutMs: request.sessionTimeoutMs,
      rebalanceTimeoutMs: request.sessionTimeoutMs,
      assignment: EMPTY,
      awaitingJoin: null,
      awaitingSync: null,
      isNew: true,
    };
    this.updateMember(member, request, answer);
    if (group.is("PreparingRebalance") && group.generationId === 0) group.newMemberAdded = true;
    group.add(member);
    this.timers.cancel(timerKeys.pendingMember(group, memberId));
    // A new member cannot heartbeat before it has a generation; bound how long its join may wait instead.
    this.scheduleSession(group, member, this.newMemberJoinTimeoutMs);
    this.maybePrepareRebalance(group, `member ${memberId} joined`);
  }

  private updateMemberAndRebalance(group: ConsumerGroup, member: GroupMember, request: JoinGroupRequest, answer: JoinAnswer): void {
    this.updateMember(member, request, answer);
    this.maybePrepareRebalance(group, `member ${member.memberId} rejoined`);
  }

  private updateMember(member: GroupMember, request: JoinGroupRequest, answer: JoinAnswer): void {
    // A repeated JoinGroup supersedes the one still waiting; that one is told to retry.
    this.answerJoin(member, joinError(member.memberId, ErrorCode.REBALANCE_IN_PROGRESS));
    member.protocolType = request.protocolType;
    member.protocols = request.protocols.map((p) => ({ name: p.name, metadata: Buffer.from(p.metadata) }));
    member.sessionTimeoutMs = request.sessionTimeoutMs;
    member.rebalanceTimeoutMs = request.rebalanceTimeoutMs < 0 ? request.sessionTimeoutMs : request.rebalanceTimeoutMs;
    member.awaitingJoin = answer;
  }

  private joinResult(group: ConsumerGroup, member: GroupMember, withMembers = group.isLeader(member.memberId)): JoinGroupResult {
    return {
      errorCode: ErrorCode.NONE,
      generationId: group.generationId,
      protocolType: group.protocolType,
      protocolName: group.protocolName,
      leader: group.leaderId ?? "",
      memberId: member.memberId,
      members: withMembers ? group.memberMetadata() : [],
    };
  }

  // --- Rebalance ---

  private maybePrepareRebalance(group: ConsumerGroup, reason: string): void {
    if (group.is("Stable", "CompletingRebalance", "Empty")) this.prepareRebalance(group, reason);
  }

  private prepareRebalance(group: ConsumerGroup, reason: string): void {
    if (group.is("CompletingRebalance")) {
      for (const member of group.members.values()) {
        member.assignment = EMPTY;
        if (this.answerSync(member, syncError(ErrorCode.REBALANCE_IN_PROGRESS))) this.scheduleSession(group, member);
      }
    }
    this.timers.cancel(timerKeys.pendingSync(group));
    group.pendingSyncMemberIds.clear();
    const wasEmpty = group.is("Empty");
    group.transitionTo("PreparingRebalance");
    this.logger.debug("preparing to rebalance group", { groupId: group.groupId, generationId: group.generationId, reason });
    if (wasEmpty) {
      const delay = this.initialRebalanceDelayMs;
      this.delayInitialJoin(group, delay, Math.max(group.rebalanceTimeoutMs() - delay, 0));
    } else {
      this.timers.set(timerKeys.join(group), group.rebalanceTimeoutMs(), () => this.completeJoin(group));
      this.tryCompleteJoin(group);
    }
  }

  /** The first rebalance of an empty group waits a little longer each time another member arrives. */
  private delayInitialJoin(group: ConsumerGroup, delayMs: number, remainingMs: number): void {
    this.timers.set(timerKeys.initialJoin(group), delayMs, () => {
      if (!group.newMemberAdded || remainingMs === 0) return this.completeJoin(group);
      group.newMemberAdded = false;
      const next = Math.min(this.initialRebalanceDelayMs, remainingMs);
      this.delayInitialJoin(group, next, remainingMs - next);
    });
  }

  private tryCompleteJoin(group: ConsumerGroup): void {
    if (!group.is("PreparingRebalance") || this.timers.has(timerKeys.initialJoin(group))) return;
    if (group.hasAllMembersJoined()) this.completeJoin(group);
  }

  private completeJoin(group: ConsumerGroup): void {
    this.timers.cancel(timerKeys.join(group));
    this.timers.cancel(timerKeys.initialJoin(group));
    for (const member of group.notYetRejoined()) {
      if (member.groupInstanceId === null) this.dropMember(group, member);
    }
    if (!group.electJoinedLeader() && group.members.size > 0) {
      // Only static members that have not rejoined are left: give them (or their session timeout) more time.
      this.timers.set(timerKeys.join(group), group.rebalanceTimeoutMs(), () => this.completeJoin(group));
      return;
    }
    group.newMemberAdded = false;
    group.initNextGeneration();
    this.logger.debug("group join phase completed", {
      groupId: group.groupId,
      generationId: group.generationId,
      state: group.state,
      protocolName: group.protocolName,
      members: group.members.size,
    });
    if (group.is("Empty")) return this.storeGroup(group);
    for (const member of group.members.values()) {
      member.isNew = false;
      this.answerJoin(member, this.joinResult(group, member));
      this.scheduleSession(group, member);
      group.pendingSyncMemberIds.add(member.memberId);
    }
    this.timers.set(timerKeys.pendingSync(group), group.rebalanceTimeoutMs(), () => this.removePendingSyncMembers(group));
  }

  /** Members that got a generation but never asked for their assignment within the rebalance timeout. */
  private removePendingSyncMembers(group: ConsumerGroup): void {
    const lagging = [...group.pendingSyncMemberIds];
    this.logger.info("removing members that did not sync", { groupId: group.groupId, members: lagging });
    for (const memberId of lagging) this.dropMember(group, this.memberOf(group, memberId));
    this.maybePrepareRebalance(group, "members did not sync");
  }

  // --- SyncGroup ---

  private handleSync(request: SyncGroupRequest, answer: SyncAnswer): void {
    const error = this.groupRequestError(request.groupId);
    if (error !== ErrorCode.NONE) return answer(syncError(error));
    const group = this.groups.get(request.groupId);
    if (group === undefined) return answer(syncError(ErrorCode.UNKNOWN_MEMBER_ID));
    const memberError = this.currentMemberError(group, request);
    if (memberError !== ErrorCode.NONE) return answer(syncError(memberError));
    if (request.generationId !== group.generationId) return answer(syncError(ErrorCode.ILLEGAL_GENERATION));
    if (group.is("PreparingRebalance")) return answer(syncError(ErrorCode.REBALANCE_IN_PROGRESS));
    const member = this.memberOf(group, request.memberId);
    this.syncArrived(group, member.memberId);
    if (group.is("Stable")) {
      this.scheduleSession(group, member);
      return answer({ errorCode: ErrorCode.NONE, assignment: member.assignment });
    }
    this.answerSync(member, syncError(ErrorCode.REBALANCE_IN_PROGRESS));
    member.awaitingSync = answer;
    if (group.isLeader(member.memberId)) this.completeSync(group, request.assignments);
  }

  private syncArrived(group: ConsumerGroup, memberId: string): void {
    group.pendingSyncMemberIds.delete(memberId);
    if (group.pendingSyncMemberIds.size === 0) this.timers.cancel(timerKeys.pendingSync(group));
  }

  private completeSync(group: ConsumerGroup, assignments: { memberId: string; assignment: Buffer }[]): void {
    const byMember = new Map(assignments.map((a) => [a.memberId, a.assignment]));
    for (const member of group.members.values()) {
      const assignment = byMember.get(member.memberId);
      member.assignment = assignment === undefined ? EMPTY : Buffer.from(assignment);
    }
    group.transitionTo("Stable");
    this.storeGroup(group);
    this.logger.debug("group is stable", { groupId: group.groupId, generationId: group.generationId });
    for (const member of group.members.values()) {
      if (this.answerSync(member, { errorCode: ErrorCode.NONE, assignment: member.assignment })) {
        this.scheduleSession(group, member);
      }
    }
  }

  // --- Membership ---

  /** Kafka's LeaveGroup v3+: a static member is found by its instance id; a member id given with it must match. */
  private leaveMember(group: ConsumerGroup, { memberId, groupInstanceId }: MemberIdentity): ErrorCodeValue {
    if (groupInstanceId !== null) {
      const boundId = group.staticMemberId(groupInstanceId);
      if (boundId === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
      if (memberId !== "" && memberId !== boundId) return ErrorCode.FENCED_INSTANCE_ID;
      this.removeMemberAndUpdateGroup(group, this.memberOf(group, boundId), `static member ${groupInstanceId} left`);
      return ErrorCode.NONE;
    }
    if (group.pendingMemberIds.has(memberId)) {
      this.removePendingMember(group, memberId);
      return ErrorCode.NONE;
    }
    const member = group.get(memberId);
    if (member === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
    this.removeMemberAndUpdateGroup(group, member, `member ${memberId} left`);
    return ErrorCode.NONE;
  }

  private removePendingMember(group: ConsumerGroup, memberId: string): void {
    this.timers.cancel(timerKeys.pendingMember(group, memberId));
    group.pendingMemberIds.delete(memberId);
    this.tryCompleteJoin(group);
  }

  private removeMemberAndUpdateGroup(group: ConsumerGroup, member: GroupMember, reason: string): void {
    this.answerJoin(member, joinError(member.memberId, ErrorCode.UNKNOWN_MEMBER_ID));
    this.answerSync(member, syncError(ErrorCode.UNKNOWN_MEMBER_ID));
    this.dropMember(group, member);
    if (group.is("PreparingRebalance")) this.tryCompleteJoin(group);
    else this.maybePrepareRebalance(group, reason);
  }

  private dropMember(group: ConsumerGroup, member: GroupMember): void {
    this.timers.cancel(timerKeys.session(group, member.memberId));
    group.remove(member.memberId);
  }

  private scheduleSession(group: ConsumerGroup, member: GroupMember, timeoutMs = member.sessionTimeoutMs): void {
    this.timers.set(timerKeys.session(group, member.memberId), timeoutMs, () => this.expireSession(group, member));
  }

  private expireSession(group: ConsumerGroup, member: GroupMember): void {
    // A known member waiting on a join or sync is alive: the join phase or the pending-sync timer bounds it.
    if (!member.isNew && (member.awaitingJoin !== null || member.awaitingSync !== null)) return;
    this.logger.info("member session expired", { groupId: group.groupId, memberId: member.memberId });
    this.removeMemberAndUpdateGroup(group, member, `member ${member.memberId} session expired`);
  }

  // --- Shared checks and answers ---

  private groupRequestError(groupId: string): ErrorCodeValue {
    if (this.closed) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    if (groupId === "") return ErrorCode.INVALID_GROUP_ID;
    return ErrorCode.NONE;
  }

  /** Kafka's validateCurrentMember: a static instance must be bound to this member id; otherwise the id must be known. */
  private currentMemberError(group: ConsumerGroup, ref: { memberId: string; groupInstanceId: string | null }): ErrorCodeValue {
    if (ref.groupInstanceId !== null) {
      const boundId = group.staticMemberId(ref.groupInstanceId);
      if (boundId === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
      return boundId === ref.memberId ? ErrorCode.NONE : ErrorCode.FENCED_INSTANCE_ID;
    }
    return group.get(ref.memberId) === undefined ? ErrorCode.UNKNOWN_MEMBER_ID : ErrorCode.NONE;
  }

  private memberOf(group: ConsumerGroup, memberId: string): GroupMember {
    const member = group.get(memberId);
    if (member === undefined) throw new Error(`member ${memberId} is not in group ${group.groupId}`);
    return member;
  }

  private answerJoin(member: GroupMember, result: JoinGroupResult): void {
    const answer = member.awaitingJoin;
    member.awaitingJoin = null;
    answer?.(result);
  }

  /** True when the member was waiting and has been answered. */
  private answerSync(member: GroupMember, result: SyncGroupResult): boolean {
    const answer = member.awaitingSync;
    member.awaitingSync = null;
    answer?.(result);
    return answer !== null;
  }

  private describeGroup(group: ConsumerGroup): DescribedGroup {
    // Like Kafka, metadata and assignments are only shown once the group is stable.
    const protocolName = group.is("Stable") ? group.requireProtocolName() : null;
    return {
      errorCode: ErrorCode.NONE,
      groupId: group.groupId,
      groupState: group.state,
      protocolType: group.protocolType ?? "",
      protocolData: protocolName ?? "",
      members: [...group.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        metadata: protocolName === null ? EMPTY : metadataFor(m, protocolName),
        assignment: protocolName === null ? EMPTY : m.assignment,
      })),
    };
  }
}
