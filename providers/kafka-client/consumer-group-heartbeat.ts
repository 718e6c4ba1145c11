/**
 * One member of a consumer group of the consumer group protocol (KIP-848, `group.protocol=consumer`, the default of
 * Kafka 4 clients). The coordinator assigns the partitions (its `group.remote.assignor`, `uniform` or `range`); the
 * member only heartbeats: ConsumerGroupHeartbeat with its own member id (a Uuid, KIP-1082), its member epoch (0 to
 * join), its subscribed topics and the partitions it owns. Answers carry the member's epoch and, when it changed,
 * its assignment, by topic id (resolved to names through the cluster's metadata).
 *
 * The coordinator gives a partition to a new owner only once its old owner has stopped listing it. So a member
 * whose assignment changes lets the group consumer finish its batch and commit (in its new epoch), then reports the
 * new assignment as owned (`join`): what it gave up moves on, what it got it fetches at once. The group consumer
 * takes every new assignment whole, as in the classic protocol's eager rebalances.
 *
 * A fenced member (FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID: its session ended, or it fell behind) has lost its
 * partitions: it commits nothing more and joins again with epoch 0, keeping its member id. Leaving sends epoch -1, or
 * -2 for a static member (`group.instance.id`), whose assignment then waits for it for the session timeout.
 */
import { randomBytes } from "node:crypto";
import { ErrorCode, errorCodeName } from "../kafka-protocol";
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import type { BrokerConnection } from "./broker-connection";
import { CONSUMER_GROUP_HEARTBEAT } from "./client-apis";
import { commitOffsets, committedOffsetsOf } from "./committed-offsets";
import type { ConnectionPool } from "./connection-pool";
import { CoordinatorKeyType, CoordinatorLocator } from "./coordinator-locator";
import { COORDINATOR_MOVED, coordinatorUnavailable, type GroupMember, type TopicPartitionOffset } from "./group-membership";
import { BrokerConnectionError, GroupError } from "./kafka-client-errors";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The member epochs a request names: joining, leaving, and a static member leaving for a while. */
const JOIN_EPOCH = 0;
const LEAVE_EPOCH = -1;
const STATIC_LEAVE_EPOCH = -2;
/** The first OffsetCommit version a consumer protocol group takes commits of its members in. */
const MEMBER_EPOCH_COMMIT_VERSION = 9;
/** Kafka's default group.consumer.heartbeat.interval.ms, until the coordinator names its own. */
const DEFAULT_HEARTBEAT_INTERVAL_MS = 5_000;

/** Codes that mean "this member lost its partitions: join again with epoch 0". */
const FENCED: ReadonlySet<number> = new Set([ErrorCode.FENCED_MEMBER_EPOCH, ErrorCode.UNKNOWN_MEMBER_ID]);
/** Codes a commit may meet once the member's epoch moved on or it was fenced: the partitions' next owner takes over. */
const COMMIT_REFUSED: ReadonlySet<number> = new Set([...FENCED, ErrorCode.STALE_MEMBER_EPOCH, ErrorCode.ILLEGAL_GENERATION]);

type TopicIdPartitions = { topicId: string; partitions: number[] };

export interface ConsumerGroupMembershipOptions {
  groupId: string;
  /** The topics the member subscribes to. */
  topics: readonly string[];
  /** `group.remote.assignor`: the coordinator's assignor to use; null or absent: the group's default. */
  serverAssignor?: string | null;
  /** `group.instance.id`: a static member; null or absent: a dynamic one. */
  groupInstanceId?: string | null;
  rebalanceTimeoutMs: number;
  retryBackoffMs: number;
  brokers: () => string[];
  /** The names of topics by id, after refreshing the metadata of `topics`. */
  topicNames(topics: readonly string[]): Promise<(topicId: string) => string | undefined>;
  requireStable?: boolean;
  logger?: ComponentLogger;
}

export class ConsumerGroupMembership implements GroupMember {
  /** Chosen once, kept for the consumer's whole life (KIP-1082): Kafka's Uuid printed as URL-safe base64. */
  readonly memberId = randomBytes(16).toString("base64url");
  /** The member epoch; 0 while not a member. */
  private memberEpoch = JOIN_EPOCH;
  rejoinNeeded = true;
  /** Fenced: its partitions are the coordinator's to give to others, and it joins again owning none. */
  partitionsLost = false;
  readonly groupInstanceId: string | null;
  /** The partitions the member reports as its own: those it took last. */
  private owned: TopicIdPartitions[] = [];
  /** An assignment the coordinator gave that the member has not taken yet. */
  private pending: TopicIdPartitions[] | null = null;
  /** An answer no rejoin can cure (an unknown assignor, a classic group of the same id…): `join` throws it. */
  private fatal: Error | null = null;
  private heartbeatIntervalMs = DEFAULT_HEARTBEAT_INTERVAL_MS;
  private heartbeatTimer?: NodeJS.Timeout;
  /** The heartbeat under way (settled, never rejected). */
  private beating: Promise<void> = Promise.resolve();
  private readonly coordinator: CoordinatorLocator;
  private readonly logger: ComponentLogger;

  constructor(
    pool: ConnectionPool,
    private readonly options: ConsumerGroupMembershipOptions,
    /** Called when a heartbeat first learns of a new assignment, or that the member was fenced. */
    private readonly onRebalance: () => void,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.groupInstanceId = options.groupInstanceId ?? null;
    const refused = (errorCode: number) => new GroupError(options.groupId, "FindCoordinator", errorCode);
    this.coordinator = new CoordinatorLocator(pool, options.brokers, { key: options.groupId, keyType: CoordinatorKeyType.GROUP }, refused);
  }

  /** The member epoch while a member, which commits carry as their generation; -1 otherwise. */
  get generationId(): number {
    return this.memberEpoch > 0 ? this.memberEpoch : -1;
  }

  /** Joins when not a member, waits for an assignment, takes it (reporting it owned at once) and returns it by topic. */
  async join(): Promise<Record<string, number[]>> {
    for (;;) {
      if (this.fatal) throw this.fatal;
      const waited = this.memberEpoch === JOIN_EPOCH || this.pending === null;
      if (waited) await this.heartbeat();
      if (this.fatal) throw this.fatal;
      const assignment = this.pending;
      if (assignment !== null && this.memberEpoch > 0) {
        const partitions = await this.named(assignment);
        // Taken unless a heartbeat meanwhile brought a newer one, or fenced the member.
        if (partitions !== undefined && this.pending === assignment) {
          this.owned = assignment;
          this.pending = null;
          this.partitionsLost = false;
          this.rejoinNeeded = false;
          // Reported now, not a heartbeat interval later: the partitions given up move on to their next owners. The
          // partitions are taken either way: a lost heartbeat is the next one's to repeat.
          await this.heartbeat().catch((error) => this.heartbeatFailed(error));
          this.startHeartbeats();
          this.logger.debug("took the group's assignment", { groupId: this.options.groupId, memberId: this.memberId, memberEpoch: this.memberEpoch, partitions });
          return partitions;
        }
        // A topic of the assignment not in the metadata yet (it was just made): asked again after a backoff.
        if (partitions === undefined) {
          await pause(this.options.retryBackoffMs);
          continue;
        }
      }
      // No assignment yet (or no answer): ask again a heartbeat interval later (a backoff later while not a member).
      if (waited) await pause(this.memberEpoch > 0 ? this.heartbeatIntervalMs : this.options.retryBackoffMs);
    }
  }

  async committed(partitions: Record<string, number[]>): Promise<TopicPartitionOffset[]> {
    return committedOffsetsOf(() => this.coordinator.connection(), this.options.groupId, partitions, { ...this.options, retriable: (code) => this.retriable(code) });
  }

  async commit(offsets: TopicPartitionOffset[]): Promise<boolean> {
    const member = { groupId: this.options.groupId, generationId: this.memberEpoch, memberId: this.memberId, groupInstanceId: this.groupInstanceId };
    return commitOffsets(await this.coordinator.connection(), member, offsets, {
      retriable: (code) => this.retriable(code),
      memberGone: COMMIT_REFUSED,
      over: (code) => this.lost(code),
      minVersion: MEMBER_EPOCH_COMMIT_VERSION,
    });
  }

  /** Leaves the group: its partitions move at once, or (a static member) wait for its return for the session timeout. */
  async leave(): Promise<void> {
    this.stopHeartbeats();
    await this.beating;
    if (this.memberEpoch <= 0 || !this.coordinator.known) return;
    const epoch = this.groupInstanceId === null ? LEAVE_EPOCH : STATIC_LEAVE_EPOCH;
    await (await this.coordinator.connection()).request(CONSUMER_GROUP_HEARTBEAT, { groupId: this.options.groupId, memberId: this.memberId, memberEpoch: epoch, instanceId: this.groupInstanceId });
    this.memberEpoch = JOIN_EPOCH;
  }

  /** The group consumer could not take its assignment over: it takes it again (or a newer one the coordinator gives). */
  requestRejoin(): void {
    this.rejoinNeeded = true;
    this.pending ??= this.owned;
  }

  /** Nothing to do: under the consumer protocol the coordinator assigns, and rebalances when it sees a reason to. */
  enforceRebalance(): void {}

  stopHeartbeats(): void {
    clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
  }

  forgetCoordinator(): void {
    this.coordinator.forget();
  }

  private startHeartbeats(): void {
    this.stopHeartbeats();
    this.heartbeatTimer = setTimeout(() => {
      // Heartbeats go on while the group consumer gives up partitions, so that its session lasts; they stop when it stops.
      void this.heartbeat()
        .catch((error) => this.heartbeatFailed(error))
        .finally(() => {
          if (this.heartbeatTimer !== undefined) this.startHeartbeats();
        });
    }, this.heartbeatIntervalMs);
    this.heartbeatTimer.unref();
  }

  /** One heartbeat, after the one under way (heartbeats go one at a time, in order). */
  private heartbeat(): Promise<void> {
    const next = this.beating.then(() => this.beat());
    this.beating = next.catch(() => undefined);
    return next;
  }

  /** A background heartbeat failed: lost connections are retried by the next one; other failures end the member. */
  private heartbeatFailed(error: unknown): void {
    if (error instanceof BrokerConnectionError || coordinatorUnavailable(error)) {
      this.forgetCoordinator();
      this.logger.debug("heartbeat failed", { groupId: this.options.groupId, error: String(error) });
    } else {
      // A coordinator without the consumer group protocol, or a refused FindCoordinator: no heartbeat would do better.
      this.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private async beat(): Promise<void> {
    const connection = await this.coordinatorConnection();
    // Every heartbeat carries the member's whole state (what it owns tells the coordinator what it gave up).
    const answer = await connection.request(CONSUMER_GROUP_HEARTBEAT, {
      groupId: this.options.groupId,
      memberId: this.memberId,
      memberEpoch: this.memberEpoch,
      instanceId: this.groupInstanceId,
      rebalanceTimeoutMs: this.options.rebalanceTimeoutMs,
      subscribedTopicNames: [...this.options.topics],
      serverAssignor: this.options.serverAssignor ?? null,
      topicPartitions: this.owned,
    });
    if (answer.errorCode !== 0) {
      this.refused(answer.errorCode, answer.errorMessage);
      return;
    }
    if (answer.heartbeatIntervalMs > 0) this.heartbeatIntervalMs = answer.heartbeatIntervalMs;
    this.memberEpoch = answer.memberEpoch;
    if (answer.assignment === null) return;
    const assigned = answer.assignment.topicPartitions.map(({ topicId, partitions }) => ({ topicId, partitions: [...partitions].sort((a, b) => a - b) }));
    if (!this.rejoinNeeded && sameAssignment(assigned, this.owned)) return;
    this.pending = assigned;
    if (this.rejoinNeeded) return;
    this.rejoinNeeded = true;
    this.logger.debug("new assignment", { groupId: this.options.groupId, memberEpoch: this.memberEpoch });
    this.onRebalance();
  }

  private refused(code: number, message: string | null): void {
    if (this.retriable(code)) return;
    if (FENCED.has(code)) {
      this.lost(code);
      return;
    }
    // Kafka's consumer ends on these too: a rejoin would be refused the same way.
    this.fail(new GroupError(this.options.groupId, `ConsumerGroupHeartbeat${message ? ` (${message})` : ""}`, code));
  }

  private fail(error: Error): void {
    this.fatal = error;
    this.stopHeartbeats();
    if (this.rejoinNeeded) return;
    this.rejoinNeeded = true;
    this.onRebalance();
  }

  /** The member lost its partitions (fenced) or its epoch moved on under a commit: it takes what the coordinator says next. */
  private lost(code: number): void {
    if (FENCED.has(code)) {
      this.memberEpoch = JOIN_EPOCH;
      this.partitionsLost = true;
      this.owned = [];
      this.pending = null;
      this.stopHeartbeats();
    } else {
      // Still a member: its assignment stands until the coordinator says otherwise.
      this.pending ??= this.owned;
    }
    this.logger.info("member fenced or behind the group's epoch; taking the group's assignment again", { groupId: this.options.groupId, memberId: this.memberId, reason: errorCodeName(code) });
    if (this.rejoinNeeded) return;
    this.rejoinNeeded = true;
    this.onRebalance();
  }

  /** The assignment by topic name; undefined while a topic id is not in the metadata yet (a topic just made). */
  private async named(assignment: readonly TopicIdPartitions[]): Promise<Record<string, number[]> | undefined> {
    if (assignment.length === 0) return {};
    const nameOf = await this.options.topicNames(this.options.topics);
    const partitions: Record<string, number[]> = {};
    for (const { topicId, partitions: list } of assignment) {
      const name = nameOf(topicId);
      if (name === undefined) return undefined;
      if (list.length > 0) partitions[name] = [...list];
    }
    return partitions;
  }

  private retriable(code: number): boolean {
    if (!COORDINATOR_MOVED.has(code)) return false;
    this.forgetCoordinator();
    return true;
  }

  private async coordinatorConnection(): Promise<BrokerConnection> {
    const connection = await this.coordinator.connection();
    connection.versionOf(CONSUMER_GROUP_HEARTBEAT);
    return connection;
  }
}

function sameAssignment(a: readonly TopicIdPartitions[], b: readonly TopicIdPartitions[]): boolean {
  const flat = (list: readonly TopicIdPartitions[]) =>
    list
      .flatMap(({ topicId, partitions }) => partitions.map((partition) => `${topicId}:${partition}`))
      .sort()
      .join(",");
  return flat(a) === flat(b);
}
