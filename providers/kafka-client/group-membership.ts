/**
 * One member of a Kafka consumer group (the classic group protocol): finds the group's coordinator, joins
 * (the leader computes every member's assignment with the given assignor), heartbeats while a member, and
 * commits and fetches the group's offsets. A heartbeat that learns of a rebalance raises `rejoinNeeded`; the
 * consumer joins again, giving all its partitions up first (eager) or keeping them through the join
 * (cooperative, KIP-429: it then reports them as owned, see group-consumer). A heartbeat refused because the member
 * is no longer in the generation raises `partitionsLost` as well: its partitions may be another member's already.
 *
 * With a `groupInstanceId` the member is static (KIP-345): every group request names its instance, it does not leave
 * the group when it stops, and the same instance joining again within the session timeout is given its partitions
 * back without a rebalance. Another member joining with the same instance id fences this one: FENCED_INSTANCE_ID is
 * fatal, as Kafka's FencedInstanceIdException is.
 */
import { decodeSubscription, ErrorCode, errorCodeName, type Subscription } from "../kafka-protocol";
import { HEARTBEAT, JOIN_GROUP, LEAVE_GROUP, SYNC_GROUP } from "./client-apis";
import { commitOffsets, committedOffsetsOf } from "./committed-offsets";
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import type { BrokerConnection } from "./broker-connection";
import type { ConnectionPool } from "./connection-pool";
import { CoordinatorKeyType, CoordinatorLocator } from "./coordinator-locator";
import { BrokerConnectionError, GroupError } from "./kafka-client-errors";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How the group's partitions are shared out; the leader's assignor decides for everyone. */
export interface GroupAssignor {
  /** The protocol name every member must agree on. */
  readonly name: string;
  /**
   * This member's subscription, as the other members' assignors will read it. `owned`: under the cooperative protocol,
   * the partitions the member keeps through this rebalance (ConsumerProtocolSubscription v1+ ownedPartitions); the
   * leader must not give any of them to another member in the same rebalance. Absent under the eager protocol.
   */
  subscription(owned?: Record<string, number[]>): Buffer;
  /** Leader only: each member's assignment, by member id. `partitionCount` is undefined for unknown topics. */
  assign(members: { memberId: string; metadata: Buffer }[], partitionCount: (topic: string) => number | undefined): Promise<Map<string, Buffer>>;
  /** This member's partitions, by topic, from the assignment the leader made for it. */
  partitionsOf(assignment: Buffer): Record<string, number[]>;
}

export interface GroupMembershipOptions {
  groupId: string;
  assignor: GroupAssignor;
  /** `group.instance.id`: a static member (KIP-345); null or absent: a dynamic one. */
  groupInstanceId?: string | null;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** Pause before asking a coordinator that was moving or loading again. */
  retryBackoffMs: number;
  /** The brokers to ask where the coordinator is, tried in turn. */
  brokers: () => string[];
  /** Topics whose partition counts the leader needs, asked before assigning. */
  partitionCounts(topics: string[]): Promise<(topic: string) => number | undefined>;
  /**
   * Committed offsets only once no open transaction is committing them (requireStable, KIP-447): what a
   * read_committed member needs, so that it never starts from an offset a transaction is about to move on.
   */
  requireStable?: boolean;
  logger?: ComponentLogger;
}

export interface TopicPartitionOffset {
  topic: string;
  partition: number;
  offset: number;
  /** The metadata committed with the offset (Kafka Streams commits the partition time there); null or absent: none. */
  metadata?: string | null;
}

/** The first JoinGroup version that carries group.instance.id (KIP-345). */
const STATIC_MEMBERSHIP_VERSION = 5;

/** Codes that mean "ask again where the coordinator is". */
export const COORDINATOR_MOVED: ReadonlySet<number> = new Set([ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS]);
/** Codes that mean "this member's generation is over: join again". */
const GENERATION_OVER: ReadonlySet<number> = new Set([ErrorCode.REBALANCE_IN_PROGRESS, ErrorCode.ILLEGAL_GENERATION, ErrorCode.UNKNOWN_MEMBER_ID]);

/** A FindCoordinator that no broker could answer yet (the coordinator is loading or moving): worth a retry. */
export function coordinatorUnavailable(error: unknown): error is GroupError {
  return error instanceof GroupError && error.request === "FindCoordinator" && COORDINATOR_MOVED.has(error.errorCode);
}

/** What the group consumer needs of its membership, whichever group protocol it speaks. */
export interface GroupMember {
  readonly memberId: string;
  /** The generation (classic) or member epoch (consumer protocol) commits are made in; -1 while not a member. */
  readonly generationId: number;
  readonly groupInstanceId: string | null;
  /** The member is to take a new assignment (or join again): stop after the batch in process and call `join`. */
  readonly rejoinNeeded: boolean;
  /** The member is out of its generation (or its consumer lost its work): its partitions may be another's already. */
  readonly partitionsLost: boolean;
  /** Joins (or takes the new assignment) and returns this member's partitions by topic. */
  join(): Promise<Record<string, number[]>>;
  committed(partitions: Record<string, number[]>): Promise<TopicPartitionOffset[]>;
  commit(offsets: TopicPartitionOffset[]): Promise<boolean>;
  leave(): Promise<void>;
  requestRejoin(): void;
  /** Joins again to have the group rebalance (Kafka's Consumer.enforceRebalance), owning what it owns. */
  enforceRebalance(): void;
  stopHeartbeats(): void;
  forgetCoordinator(): void;
}

export class GroupMembership implements GroupMember {
  memberId = "";
  generationId = -1;
  /** A rebalance is under way (or this member was dropped): stop after the batch in process and join again. */
  rejoinNeeded = true;
  /** The member is no longer in its generation (or its consumer lost its work): its partitions are not its own. */
  partitionsLost = false;
  private readonly coordinator: CoordinatorLocator;
  private heartbeatTimer?: NodeJS.Timeout;
  private heartbeatInFlight = false;
  private readonly logger: ComponentLogger;
  readonly groupInstanceId: string | null;

  constructor(
    pool: ConnectionPool,
    private readonly options: GroupMembershipOptions,
    /** Called when a heartbeat first learns that the group rebalances. */
    private readonly onRebalance: () => void,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.groupInstanceId = options.groupInstanceId ?? null;
    const refused = (errorCode: number) => new GroupError(options.groupId, "FindCoordinator", errorCode);
    this.coordinator = new CoordinatorLocator(pool, options.brokers, { key: options.groupId, keyType: CoordinatorKeyType.GROUP }, refused);
  }

  /**
   * Joins (again) and returns this member's partitions; retries what a rebalance in progress interrupts. `owned`: the
   * partitions a cooperative member keeps meanwhile (see GroupAssignor.subscription).
   */
  async join(owned?: Record<string, number[]>): Promise<Record<string, number[]>> {
    this.stopHeartbeats();
    for (;;) {
      const connection = await this.coordinatorConnection();
      if (this.groupInstanceId !== null && connection.versionOf(JOIN_GROUP) < STATIC_MEMBERSHIP_VERSION) {
        // Older versions have no group.instance.id: the member would silently be a dynamic one.
        throw new Error(`group ${this.options.groupId}: group.instance.id needs a coordinator of Kafka 2.3 or later (JoinGroup v${STATIC_MEMBERSHIP_VERSION}); ${connection.address} is older`);
      }
      const joined = await connection.request(JOIN_GROUP, {
        groupId: this.options.groupId,
        sessionTimeoutMs: this.options.sessionTimeoutMs,
        rebalanceTimeoutMs: this.options.rebalanceTimeoutMs,
        memberId: this.memberId,
        groupInstanceId: this.groupInstanceId,
        protocolType: "consumer",
        protocols: [{ name: this.options.assignor.name, metadata: this.options.assignor.subscription(owned) }],
      });
      if (joined.errorCode === ErrorCode.MEMBER_ID_REQUIRED) {
        this.memberId = joined.memberId;
        continue;
      }
      if (joined.errorCode === ErrorCode.UNKNOWN_MEMBER_ID) {
        this.memberId = "";
        continue;
      }
      if (this.retriable(joined.errorCode)) {
        await pause(this.options.retryBackoffMs);
        continue;
      }
      if (joined.errorCode !== 0) throw new GroupError(this.options.groupId, "JoinGroup", joined.errorCode);
      this.memberId = joined.memberId;
      this.generationId = joined.generationId;
      // A leader answered without members is a static member back in a stable group: the group keeps its assignment.
      const assigns = joined.leader === joined.memberId && joined.members.length > 0;
      const assignments = assigns ? await this.assign(joined.members) : new Map<string, Buffer>();
      const synced = await connection.request(SYNC_GROUP, {
        groupId: this.options.groupId,
        generationId: joined.generationId,
        memberId: joined.memberId,
        groupInstanceId: this.groupInstanceId,
        assignments: [...assignments].map(([memberId, assignment]) => ({ memberId, assignment })),
      });
      if (this.retriable(synced.errorCode)) {
        await pause(this.options.retryBackoffMs);
        continue;
      }
      if (GENERATION_OVER.has(synced.errorCode)) {
        if (synced.errorCode === ErrorCode.UNKNOWN_MEMBER_ID) this.memberId = "";
        continue;
      }
      if (synced.errorCode !== 0) throw new GroupError(this.options.groupId, "SyncGroup", synced.errorCode);
      this.rejoinNeeded = false;
      this.partitionsLost = false;
      this.startHeartbeats();
      this.logger.debug("joined group", { groupId: this.options.groupId, memberId: this.memberId, generationId: this.generationId });
      return synced.assignment.length === 0 ? {} : this.options.assignor.partitionsOf(synced.assignment);
    }
  }

  /**
   * The group's committed offsets of `partitions`; -1 where it has none. With requireStable, a partition an open
   * transaction commits is asked again until that transaction has ended.
   */
  async committed(partitions: Record<string, number[]>): Promise<TopicPartitionOffset[]> {
    return committedOffsetsOf(() => this.coordinatorConnection(), this.options.groupId, partitions, { ...this.options, retriable: (code) => this.retriable(code) });
  }

  /**
   * Commits `offsets` (each the next offset to read) in this member's generation. False when the generation is
   * over (the offsets stay with the state the partitions' next owner restores) or the coordinator moved.
   */
  async commit(offsets: TopicPartitionOffset[]): Promise<boolean> {
    const member = { groupId: this.options.groupId, generationId: this.generationId, memberId: this.memberId, groupInstanceId: this.groupInstanceId };
    return commitOffsets(await this.coordinatorConnection(), member, offsets, {
      retriable: (code) => this.retriable(code),
      memberGone: GENERATION_OVER,
      over: (code) => this.generationOver(code),
    });
  }

  /**
   * Leaves the group so that its partitions move at once, not after the session timeout. A static member does not:
   * its partitions wait for it to come back (or for its session to end), as Kafka's consumer's close does.
   */
  async leave(): Promise<void> {
    this.stopHeartbeats();
    if (this.groupInstanceId !== null || this.memberId === "" || !this.coordinator.known) return;
    const connection = await this.coordinator.connection();
    // Versions up to 2 name the member in memberId, later ones in members: the codec writes the one the version has.
    await connection.request(LEAVE_GROUP, {
      groupId: this.options.groupId,
      memberId: this.memberId,
      members: [{ memberId: this.memberId, groupInstanceId: null }],
    });
    this.memberId = "";
  }

  /** Marks the member to join again (its consumer could not take its assignment over, or lost its work). */
  requestRejoin(): void {
    this.partitionsLost = true;
    this.rejoinKeepingPartitions();
  }

  /**
   * A JoinGroup from this member starts a rebalance once the group is stable (from its leader always, from another
   * member when its subscription changed, as Kafka's coordinator decides): eager, the consumer gives its partitions up
   * first; cooperative, it keeps them through the join.
   */
  enforceRebalance(): void {
    if (!this.rejoinNeeded) this.rejoinKeepingPartitions();
  }

  /** Marks the member to join again with the partitions it owns (a cooperative member that revoked some). */
  rejoinKeepingPartitions(): void {
    this.rejoinNeeded = true;
    this.stopHeartbeats();
  }

  stopHeartbeats(): void {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
  }

  /** Forgets the coordinator after a lost connection; the next call asks where it is. */
  forgetCoordinator(): void {
    this.coordinator.forget();
  }

  private startHeartbeats(): void {
    this.stopHeartbeats();
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.options.heartbeatIntervalMs);
    this.heartbeatTimer.unref();
  }

  private async heartbeat(): Promise<void> {
    if (this.heartbeatInFlight || this.rejoinNeeded) return;
    this.heartbeatInFlight = true;
    try {
      const answer = await (await this.coordinatorConnection()).request(HEARTBEAT, {
        groupId: this.options.groupId,
        generationId: this.generationId,
        memberId: this.memberId,
        groupInstanceId: this.groupInstanceId,
      });
      // A fenced instance joins again to be told so (FENCED_INSTANCE_ID), which ends the consumer.
      if (GENERATION_OVER.has(answer.errorCode) || answer.errorCode === ErrorCode.FENCED_INSTANCE_ID) this.generationOver(answer.errorCode);
      else if (answer.errorCode !== 0 && !this.retriable(answer.errorCode)) this.logger.warn("heartbeat refused", { groupId: this.options.groupId, error: errorCodeName(answer.errorCode) });
    } catch (error) {
      // A lost coordinator shows again in the consumer's next group request, which rediscovers it.
      if (error instanceof BrokerConnectionError) this.forgetCoordinator();
      this.logger.debug("heartbeat failed", { groupId: this.options.groupId, error: String(error) });
    } finally {
      this.heartbeatInFlight = false;
    }
  }

  private generationOver(code: number): void {
    if (code === ErrorCode.UNKNOWN_MEMBER_ID) this.memberId = "";
    // Only a rebalance in progress leaves the member in its generation, owning its partitions (KIP-429).
    if (code !== ErrorCode.REBALANCE_IN_PROGRESS) this.partitionsLost = true;
    if (this.rejoinNeeded) return;
    this.rejoinNeeded = true;
    this.stopHeartbeats();
    this.logger.debug("group rebalances", { groupId: this.options.groupId, reason: errorCodeName(code) });
    this.onRebalance();
  }

  /** True (after forgetting the coordinator) for codes that a new coordinator lookup may cure. */
  private retriable(code: number): boolean {
    if (!COORDINATOR_MOVED.has(code)) return false;
    this.forgetCoordinator();
    return true;
  }

  private async assign(members: { memberId: string; metadata: Buffer }[]): Promise<Map<string, Buffer>> {
    const topics = new Set<string>();
    for (const member of members) for (const topic of this.subscription(member).topics) topics.add(topic);
    return this.options.assignor.assign(members, await this.options.partitionCounts([...topics]));
  }

  private subscription(member: { memberId: string; metadata: Buffer }): Subscription {
    try {
      return decodeSubscription(member.metadata);
    } catch (error) {
      throw new Error(`group ${this.options.groupId}: the subscription of member ${member.memberId} cannot be read: ${(error as Error).message}`);
    }
  }

  private coordinatorConnection(): Promise<BrokerConnection> {
    return this.coordinator.connection();
  }
}
