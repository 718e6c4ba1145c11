/**
 * The coordinator of the consumer group protocol (KIP-848, `group.protocol=consumer`): ConsumerGroupHeartbeat (join
 * with epoch 0, heartbeat, leave with -1, a static member's leave with -2 and its return), the server-side assignors,
 * member and group epochs, fencing, session and rebalance timeouts, and offset-commit admission of its groups. Groups
 * share their ids with the classic coordinator's: a group is of one type, and an empty group of the other type gives
 * way to a new member (Kafka's conversion of an empty group); a non-empty one answers GROUP_ID_NOT_FOUND, as Kafka does
 * when it does not migrate groups online (`group.consumer.migration.policy=disabled`). No I/O: each change of a group
 * is handed to `saveGroup`, and what was saved comes back through `load` when the broker restarts.
 */
import { randomBytes } from "node:crypto";
import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { silentLogger, type ComponentLogger } from "../../../kernel/logger";
import { ConsumerProtocolGroup, STATIC_LEFT_EPOCH, type ConsumerGroupState, type ConsumerProtocolMember } from "./consumer-protocol-group";
import type { ForeignGroups, MemberRef } from "./group-coordinator";
import type { StoredConsumerGroup } from "../storage/log-store";
import { KeyedTimers } from "./keyed-timers";
import { parsePartitionKey, partitionKey, SERVER_ASSIGNORS, type ServerAssignor } from "./server-assignors";

const JOIN_EPOCH = 0;
const LEAVE_EPOCH = -1;

/** A topic as the coordinator needs it: its id and its partition count. */
export interface CatalogTopic {
  readonly topicId?: string;
  readonly partitions: number;
}

export interface ConsumerProtocolCoordinatorOptions {
  /** The broker's topics by name, now. */
  topics: () => ReadonlyMap<string, CatalogTopic>;
  classicGroups: ForeignGroups;
  /** Kafka's group.consumer.session.timeout.ms (default 45 s). */
  sessionTimeoutMs?: number;
  /** Kafka's group.consumer.heartbeat.interval.ms (default 5 s). */
  heartbeatIntervalMs?: number;
  /** Kafka's group.consumer.assignors: names among `uniform` and `range`; the first is the default. */
  assignors?: readonly string[];
  /**
   * Keeps a group durably, as Kafka writes a consumer group's metadata, members and assignments to its offsets topic:
   * called after every change of membership, epochs or assignments.
   */
  saveGroup?: (group: StoredConsumerGroup) => void;
  logger?: ComponentLogger;
}

export type TopicPartitionsById = { topicId: string; partitions: number[] }[];

/** ConsumerGroupHeartbeat's request, as the coordinator reads it. */
export interface HeartbeatRequest {
  groupId: string;
  memberId: string;
  memberEpoch: number;
  instanceId: string | null;
  rackId: string | null;
  rebalanceTimeoutMs: number;
  subscribedTopicNames: string[] | null;
  subscribedTopicRegex?: string | null;
  serverAssignor: string | null;
  topicPartitions: TopicPartitionsById | null;
}

export interface HeartbeatResult {
  errorCode: ErrorCodeValue;
  errorMessage: string | null;
  memberId: string | null;
  memberEpoch: number;
  heartbeatIntervalMs: number;
  assignment: { topicPartitions: TopicPartitionsById } | null;
}

export interface HeartbeatContext {
  apiVersion: number;
  clientId: string;
  clientHost: string;
}

export interface DescribedConsumerGroupMember {
  memberId: string;
  instanceId: string | null;
  rackId: string | null;
  memberEpoch: number;
  clientId: string;
  clientHost: string;
  subscribedTopicNames: string[];
  assignment: TopicPartitionsById;
  targetAssignment: TopicPartitionsById;
}

export interface DescribedConsumerGroup {
  groupId: string;
  groupState: ConsumerGroupState;
  groupEpoch: number;
  assignmentEpoch: number;
  assignorName: string;
  members: DescribedConsumerGroupMember[];
}

/** A request the coordinator refuses, with Kafka's error and message. */
class Refusal {
  constructor(
    readonly errorCode: ErrorCodeValue,
    readonly message: string,
  ) {}
}

const timerKeys = {
  session: (groupId: string, memberId: string) => `session\0${groupId}\0${memberId}`,
  rebalance: (groupId: string, memberId: string) => `rebalance\0${groupId}\0${memberId}`,
};

function toKeys(partitions: TopicPartitionsById): Set<string> {
  return new Set(partitions.flatMap(({ topicId, partitions: list }) => list.map((partition) => partitionKey(topicId, partition))));
}

export function byTopicId(keys: Iterable<string>): TopicPartitionsById {
  const grouped = new Map<string, number[]>();
  for (const key of keys) {
    const { topicId, partition } = parsePartitionKey(key);
    grouped.set(topicId, [...(grouped.get(topicId) ?? []), partition]);
  }
  return [...grouped].map(([topicId, partitions]) => ({ topicId, partitions: partitions.sort((a, b) => a - b) }));
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((key) => b.has(key));

function storedGroupOf(group: ConsumerProtocolGroup): StoredConsumerGroup {
  return {
    protocol: "consumer",
    groupId: group.groupId,
    groupEpoch: group.groupEpoch,
    targetEpoch: group.targetEpoch,
    assignorName: group.assignorName,
    members: [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      instanceId: member.instanceId,
      rackId: member.rackId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      memberEpoch: member.memberEpoch,
      previousMemberEpoch: member.previousMemberEpoch,
      state: member.state,
      assigned: [...member.assigned],
      revoking: [...member.revoking],
      target: [...(group.target.get(member.memberId) ?? [])],
      subscribedTopicNames: [...member.subscribedTopicNames],
      serverAssignor: member.serverAssignor,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
    })),
  };
}

export class ConsumerProtocolCoordinator implements ForeignGroups {
  private readonly groups = new Map<string, ConsumerProtocolGroup>();
  private readonly timers = new KeyedTimers();
  private readonly logger: ComponentLogger;
  private readonly sessionTimeoutMs: number;
  private readonly heartbeatIntervalMs: number;
  private readonly assignors: readonly ServerAssignor[];
  /** Each group as last saved (its JSON), so that a heartbeat that changes nothing writes nothing. */
  private readonly saved = new Map<string, string>();
  private closed = false;

  constructor(private readonly options: ConsumerProtocolCoordinatorOptions) {
    this.logger = options.logger ?? silentLogger;
    this.sessionTimeoutMs = options.sessionTimeoutMs ?? 45_000;
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 5_000;
    const names = options.assignors ?? ["uniform", "range"];
    this.assignors = names.map((name) => {
      const assignor = SERVER_ASSIGNORS.find((known) => known.name === name);
      if (assignor === undefined) throw new Error(`unknown consumer group assignor ${name}: choose among ${SERVER_ASSIGNORS.map((known) => known.name).join(", ")}`);
      return assignor;
    });
    if (this.assignors.length === 0) throw new Error("the consumer group protocol needs at least one assignor");
  }

  heartbeat(request: HeartbeatRequest, context: HeartbeatContext): HeartbeatResult {
    try {
      if (this.closed) throw new Refusal(ErrorCode.COORDINATOR_NOT_AVAILABLE, "The coordinator is not available.");
      this.validate(request, context.apiVersion);
      if (request.memberEpoch === LEAVE_EPOCH || request.memberEpoch === STATIC_LEFT_EPOCH) return this.leave(request);
      return this.beat(request, context);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return { errorCode: error.errorCode, errorMessage: error.message, memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null };
    } finally {
      this.save(request.groupId);
    }
  }

  /**
   * Takes up the groups a broker saved before it stopped, as a Kafka coordinator loads its offsets topic: each member
   * goes on with its epoch and assignment, and its session starts now, so one that does not come back is removed.
   */
  load(stored: readonly StoredConsumerGroup[]): void {
    for (const saved of stored) {
      const group = new ConsumerProtocolGroup(saved.groupId);
      group.groupEpoch = saved.groupEpoch;
      group.targetEpoch = saved.targetEpoch;
      group.assignorName = saved.assignorName;
      for (const { target, assigned, revoking, ...member } of saved.members) {
        group.add({ ...member, subscribedTopicNames: [...member.subscribedTopicNames], assigned: new Set(assigned), revoking: new Set(revoking) });
        group.target.set(member.memberId, new Set(target));
      }
      group.topicsSignature = this.topicsSignature(group);
      this.groups.set(group.groupId, group);
      this.saved.set(group.groupId, JSON.stringify(storedGroupOf(group)));
      for (const member of group.members.values()) {
        this.scheduleSession(group, member);
        this.watchRevocation(group, member, member.memberEpoch);
      }
    }
  }

  /** The groups of this protocol, for ListGroups. */
  list(): { groupId: string; groupState: ConsumerGroupState }[] {
    return [...this.groups.values()].map((group) => ({ groupId: group.groupId, groupState: group.state }));
  }

  has(groupId: string): boolean {
    return this.groups.has(groupId);
  }

  describe(groupId: string): DescribedConsumerGroup | undefined {
    const group = this.groups.get(groupId);
    if (group === undefined) return undefined;
    return {
      groupId,
      groupState: group.state,
      groupEpoch: group.groupEpoch,
      assignmentEpoch: group.targetEpoch,
      assignorName: group.assignorName ?? this.assignors[0].name,
      members: [...group.members.values()].map((member) => ({
        memberId: member.memberId,
        instanceId: member.instanceId,
        rackId: member.rackId,
        memberEpoch: member.memberEpoch,
        clientId: member.clientId,
        clientHost: member.clientHost,
        subscribedTopicNames: [...member.subscribedTopicNames],
        assignment: byTopicId(member.assigned),
        targetAssignment: byTopicId(group.target.get(member.memberId) ?? []),
      })),
    };
  }

  /** DeleteGroups: NONE when the group was empty and is gone, NON_EMPTY_GROUP while it has members. */
  deleteGroup(groupId: string): ErrorCodeValue {
    const group = this.groups.get(groupId);
    if (group === undefined) return ErrorCode.GROUP_ID_NOT_FOUND;
    if (group.members.size > 0) return ErrorCode.NON_EMPTY_GROUP;
    this.groups.delete(groupId);
    this.saved.delete(groupId);
    return ErrorCode.NONE;
  }

  /**
   * Kafka's rule for commits to a consumer protocol group: a commit without a member (epoch < 0) only while the group
   * is empty; a member's commit needs OffsetCommit v9+ (apiVersion; null for a transactional commit, which has no such
   * rule) and the member's current epoch.
   */
  validateOffsetCommit(ref: MemberRef, apiVersion: number | null): ErrorCodeValue {
    if (this.closed) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    const group = this.groups.get(ref.groupId);
    if (group === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
    if (ref.generationId < 0 && group.members.size === 0) return ErrorCode.NONE;
    const member = group.members.get(ref.memberId);
    if (member === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
    if (apiVersion !== null && apiVersion < 9) return ErrorCode.UNSUPPORTED_VERSION;
    if (ref.generationId !== member.memberEpoch) return ErrorCode.STALE_MEMBER_EPOCH;
    return ErrorCode.NONE;
  }

  stateOf(groupId: string): "none" | "empty" | "active" {
    const group = this.groups.get(groupId);
    if (group === undefined) return "none";
    return group.members.size === 0 ? "empty" : "active";
  }

  remove(groupId: string): void {
    if (this.stateOf(groupId) !== "empty") return;
    this.groups.delete(groupId);
    this.saved.delete(groupId);
  }

  close(): void {
    this.closed = true;
    this.timers.cancelAll();
    this.groups.clear();
  }

  // --- Requests ---

  /** Kafka's checks of a heartbeat's fields, with its messages. */
  private validate(request: HeartbeatRequest, apiVersion: number): void {
    const invalid = (message: string) => new Refusal(ErrorCode.INVALID_REQUEST, message);
    if (request.groupId === "") throw invalid("GroupId can't be empty.");
    if (request.instanceId === "") throw invalid("InstanceId can't be empty.");
    if (request.rackId === "") throw invalid("RackId can't be empty.");
    if (request.memberEpoch < STATIC_LEFT_EPOCH) throw invalid(`MemberEpoch is invalid: ${request.memberEpoch}.`);
    // v0 lets a joining member leave its id to the coordinator; from v1 on (KIP-1082) the member always names it.
    if (request.memberId === "" && (apiVersion >= 1 || request.memberEpoch !== JOIN_EPOCH)) throw invalid("MemberId can't be empty.");
    if (request.memberEpoch === JOIN_EPOCH) {
      if (request.rebalanceTimeoutMs === -1) throw invalid("RebalanceTimeoutMs must be provided in first request.");
      if (request.topicPartitions === null || request.topicPartitions.length > 0) throw invalid("TopicPartitions must be empty when (re-)joining.");
      if (request.subscribedTopicNames === null && !request.subscribedTopicRegex) throw invalid("SubscribedTopicNames or SubscribedTopicRegex must be set in first request.");
    }
    if (request.subscribedTopicRegex) throw invalid("SubscribedTopicRegex is not supported by this broker; subscribe to topic names.");
    if (request.serverAssignor !== null && !this.assignors.some((assignor) => assignor.name === request.serverAssignor)) {
      const names = this.assignors.map((assignor) => assignor.name).join(", ");
      throw new Refusal(ErrorCode.UNSUPPORTED_ASSIGNOR, `ServerAssignor ${request.serverAssignor} is not supported. Supported assignors: ${names}.`);
    }
  }

  private beat(request: HeartbeatRequest, context: HeartbeatContext): HeartbeatResult {
    const group = this.groupFor(request);
    const { member, isNew } = this.memberFor(group, request, context);
    const assignedBefore = new Set(member.assigned);
    const epochBefore = member.memberEpoch;
    if (request.subscribedTopicNames !== null) member.subscribedTopicNames = [...request.subscribedTopicNames].sort();
    if (request.memberEpoch === JOIN_EPOCH || request.serverAssignor !== null) member.serverAssignor = request.serverAssignor;
    if (request.rebalanceTimeoutMs !== -1) member.rebalanceTimeoutMs = request.rebalanceTimeoutMs;
    if (request.rackId !== null) member.rackId = request.rackId;
    if (isNew) group.add(member);
    this.refreshTarget(group, isNew || this.subscriptionChanged(group));
    group.reconcile(member, request.topicPartitions === null ? null : toKeys(request.topicPartitions));
    this.scheduleSession(group, member);
    this.watchRevocation(group, member, epochBefore);
    const full = request.memberEpoch === JOIN_EPOCH || (request.rebalanceTimeoutMs !== -1 && request.subscribedTopicNames !== null && request.topicPartitions !== null);
    return {
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      memberId: member.memberId,
      memberEpoch: member.memberEpoch,
      heartbeatIntervalMs: this.heartbeatIntervalMs,
      assignment: full || !sameSet(assignedBefore, member.assigned) ? { topicPartitions: byTopicId(member.assigned) } : null,
    };
  }

  private leave(request: HeartbeatRequest): HeartbeatResult {
    const group = this.groups.get(request.groupId);
    const member = group?.members.get(request.memberId);
    if (group === undefined || member === undefined) throw new Refusal(ErrorCode.UNKNOWN_MEMBER_ID, `Member ${request.memberId} is not a member of group ${request.groupId}.`);
    this.checkInstance(group, request);
    if (request.memberEpoch === STATIC_LEFT_EPOCH && member.instanceId !== null) {
      // Its assignment waits for its return until its session ends.
      member.previousMemberEpoch = member.memberEpoch;
      member.memberEpoch = STATIC_LEFT_EPOCH;
      this.timers.cancel(timerKeys.rebalance(group.groupId, member.memberId));
      this.logger.debug("static member left for now", { groupId: group.groupId, memberId: member.memberId, instanceId: member.instanceId });
    } else {
      this.removeMember(group, member, "left the group");
    }
    return { errorCode: ErrorCode.NONE, errorMessage: null, memberId: request.memberId, memberEpoch: request.memberEpoch, heartbeatIntervalMs: 0, assignment: null };
  }

  // --- Groups and members ---

  private groupFor(request: HeartbeatRequest): ConsumerProtocolGroup {
    const existing = this.groups.get(request.groupId);
    if (existing !== undefined) return existing;
    const classic = this.options.classicGroups.stateOf(request.groupId);
    if (classic === "active") throw new Refusal(ErrorCode.GROUP_ID_NOT_FOUND, `Group ${request.groupId} is not a consumer group.`);
    // A member of a group the broker does not hold (it restarted, or the group was deleted) joins again.
    if (request.memberEpoch !== JOIN_EPOCH) throw new Refusal(ErrorCode.UNKNOWN_MEMBER_ID, `Member ${request.memberId} is not a member of group ${request.groupId}.`);
    if (classic === "empty") this.options.classicGroups.remove(request.groupId);
    const group = new ConsumerProtocolGroup(request.groupId);
    this.groups.set(request.groupId, group);
    return group;
  }

  private memberFor(group: ConsumerProtocolGroup, request: HeartbeatRequest, context: HeartbeatContext): { member: ConsumerProtocolMember; isNew: boolean } {
    const known = group.members.get(request.memberId);
    if (request.memberEpoch !== JOIN_EPOCH) {
      if (known === undefined) throw new Refusal(ErrorCode.UNKNOWN_MEMBER_ID, `Member ${request.memberId} is not a member of group ${group.groupId}.`);
      this.checkInstance(group, request);
      this.checkEpoch(known, request);
      return { member: known, isNew: false };
    }
    if (request.instanceId !== null) {
      const boundId = group.staticMemberId(request.instanceId);
      const bound = boundId === undefined ? undefined : group.members.get(boundId);
      if (bound !== undefined && bound.memberEpoch === STATIC_LEFT_EPOCH) return { member: this.replaceStaticMember(group, bound, request, context), isNew: false };
      if (bound !== undefined && bound.memberId !== request.memberId) {
        throw new Refusal(ErrorCode.UNRELEASED_INSTANCE_ID, `Static member ${request.memberId} with instance id ${request.instanceId} cannot join the group because the instance id is owned by ${bound.memberId} member.`);
      }
    }
    if (known !== undefined) {
      // A fenced member joining again with its id: it owns nothing now, and takes its target afresh.
      known.assigned = new Set();
      known.revoking = new Set();
      known.memberEpoch = JOIN_EPOCH;
      known.state = "unreleased";
      return { member: known, isNew: false };
    }
    const member: ConsumerProtocolMember = {
      memberId: request.memberId === "" ? randomBytes(16).toString("base64url") : request.memberId,
      instanceId: request.instanceId,
      rackId: request.rackId,
      clientId: context.clientId,
      clientHost: context.clientHost,
      memberEpoch: JOIN_EPOCH,
      previousMemberEpoch: JOIN_EPOCH,
      state: "unreleased",
      assigned: new Set(),
      revoking: new Set(),
      subscribedTopicNames: [],
      serverAssignor: null,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs,
    };
    return { member, isNew: true };
  }

  /** KIP-345 under KIP-848: the returning static member takes over the assignment and epoch of its instance. */
  private replaceStaticMember(group: ConsumerProtocolGroup, old: ConsumerProtocolMember, request: HeartbeatRequest, context: HeartbeatContext): ConsumerProtocolMember {
    const target = group.target.get(old.memberId);
    this.timers.cancel(timerKeys.session(group.groupId, old.memberId));
    group.remove(old.memberId);
    const member: ConsumerProtocolMember = {
      ...old,
      memberId: request.memberId === "" ? randomBytes(16).toString("base64url") : request.memberId,
      clientId: context.clientId,
      clientHost: context.clientHost,
      // The epoch it had when it left (kept as its previous one).
      memberEpoch: old.previousMemberEpoch,
    };
    group.add(member);
    if (target !== undefined) group.target.set(member.memberId, target);
    // Same subscriptions under a new member id: no new group epoch, so no other member is disturbed.
    group.topicsSignature = this.topicsSignature(group);
    this.logger.info("static member came back", { groupId: group.groupId, instanceId: member.instanceId, oldMemberId: old.memberId, memberId: member.memberId });
    return member;
  }

  private checkInstance(group: ConsumerProtocolGroup, request: HeartbeatRequest): void {
    if (request.instanceId === null) return;
    const boundId = group.staticMemberId(request.instanceId);
    if (boundId === undefined) throw new Refusal(ErrorCode.UNKNOWN_MEMBER_ID, `Instance id ${request.instanceId} is unknown.`);
    if (boundId !== request.memberId) throw new Refusal(ErrorCode.FENCED_INSTANCE_ID, `Static member ${request.memberId} with instance id ${request.instanceId} was fenced by member ${boundId}.`);
  }

  /** A member one epoch behind may repeat its last heartbeat (its answer was lost) while it owns only what it may. */
  private checkEpoch(member: ConsumerProtocolMember, request: HeartbeatRequest): void {
    if (request.memberEpoch === member.memberEpoch) return;
    const owned = request.topicPartitions === null ? null : toKeys(request.topicPartitions);
    const lostAnswer = request.memberEpoch === member.previousMemberEpoch && owned !== null && [...owned].every((key) => member.assigned.has(key));
    if (!lostAnswer) throw new Refusal(ErrorCode.FENCED_MEMBER_EPOCH, `The consumer group member has a member epoch (${request.memberEpoch}) different from the one known by the group coordinator (${member.memberEpoch}).`);
  }

  private removeMember(group: ConsumerProtocolGroup, member: ConsumerProtocolMember, reason: string): void {
    this.timers.cancel(timerKeys.session(group.groupId, member.memberId));
    this.timers.cancel(timerKeys.rebalance(group.groupId, member.memberId));
    group.remove(member.memberId);
    this.logger.info(`consumer group member ${reason}`, { groupId: group.groupId, memberId: member.memberId });
    this.refreshTarget(group, true);
    this.save(group.groupId);
  }

  /** Hands the group to `saveGroup` when it changed since it was last saved. */
  private save(groupId: string): void {
    const group = this.groups.get(groupId);
    if (group === undefined || this.closed) return;
    const stored = storedGroupOf(group);
    const text = JSON.stringify(stored);
    if (this.saved.get(groupId) === text) return;
    this.saved.set(groupId, text);
    this.options.saveGroup?.(stored);
  }

  // --- Assignment ---

  /** A member's new subscription or a change in the subscribed topics (made, deleted, grown) bumps the group epoch. */
  private subscriptionChanged(group: ConsumerProtocolGroup): boolean {
    return this.topicsSignature(group) !== group.topicsSignature || this.chosenAssignor(group).name !== group.assignorName;
  }

  private topicsSignature(group: ConsumerProtocolGroup): string {
    const topics = this.options.topics();
    const members = [...group.members.values()].map((member) => `${member.memberId}=${member.subscribedTopicNames.join(",")}`).sort();
    const names = [...new Set([...group.members.values()].flatMap((member) => member.subscribedTopicNames))].sort();
    const described = names.map((name) => {
      const topic = topics.get(name);
      return topic === undefined ? `${name}:-` : `${name}:${topic.topicId}:${topic.partitions}`;
    });
    return `${members.join(";")}|${described.join(";")}`;
  }

  /** The assignor most members ask for (ties: the configured order), else the first configured. */
  private chosenAssignor(group: ConsumerProtocolGroup): ServerAssignor {
    const votes = new Map<string, number>();
    for (const member of group.members.values()) if (member.serverAssignor !== null) votes.set(member.serverAssignor, (votes.get(member.serverAssignor) ?? 0) + 1);
    let chosen = this.assignors[0];
    let most = 0;
    for (const assignor of this.assignors) {
      const count = votes.get(assignor.name) ?? 0;
      if (count > most) [chosen, most] = [assignor, count];
    }
    return chosen;
  }

  /** Bumps the group epoch when asked to and computes the target assignment of the new epoch. */
  private refreshTarget(group: ConsumerProtocolGroup, bump: boolean): void {
    if (!bump && group.groupEpoch === group.targetEpoch) return;
    if (bump) group.groupEpoch += 1;
    group.topicsSignature = this.topicsSignature(group);
    const assignor = this.chosenAssignor(group);
    const topics = this.options.topics();
    const subscribed = [...new Set([...group.members.values()].flatMap((member) => member.subscribedTopicNames))].sort();
    const described = subscribed.flatMap((name) => {
      const topic = topics.get(name);
      return topic?.topicId === undefined ? [] : [{ name, topicId: topic.topicId, partitions: topic.partitions }];
    });
    const idOf = new Map(described.map(({ name, topicId }) => [name, topicId]));
    const members = [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      subscribedTopicIds: new Set(member.subscribedTopicNames.flatMap((name) => idOf.get(name) ?? [])),
      previous: group.target.get(member.memberId) ?? new Set<string>(),
    }));
    group.target = assignor.assign(members, described);
    group.assignorName = assignor.name;
    group.targetEpoch = group.groupEpoch;
    this.logger.debug("consumer group target assignment", { groupId: group.groupId, groupEpoch: group.groupEpoch, assignor: assignor.name, members: members.length });
  }

  // --- Timers ---

  private scheduleSession(group: ConsumerProtocolGroup, member: ConsumerProtocolMember): void {
    this.timers.set(timerKeys.session(group.groupId, member.memberId), this.sessionTimeoutMs, () => {
      if (group.members.get(member.memberId) !== member) return;
      this.removeMember(group, member, "session expired");
    });
  }

  /** A member asked to give partitions up has its rebalance timeout to do it; past it, it is fenced. */
  private watchRevocation(group: ConsumerProtocolGroup, member: ConsumerProtocolMember, epochBefore: number): void {
    const key = timerKeys.rebalance(group.groupId, member.memberId);
    if (member.state !== "unrevoked") return this.timers.cancel(key);
    if (this.timers.has(key) && epochBefore === member.memberEpoch) return;
    const epoch = member.memberEpoch;
    this.timers.set(key, member.rebalanceTimeoutMs, () => {
      if (group.members.get(member.memberId) !== member || member.state !== "unrevoked" || member.memberEpoch !== epoch) return;
      this.removeMember(group, member, "fenced: it did not give its partitions up within its rebalance timeout");
    });
  }
}
