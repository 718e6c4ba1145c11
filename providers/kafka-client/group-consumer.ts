/**
 * A consumer-group member that reads its partitions from their leaders and hands each partition's fetched
 * records to its handler, one batch at a time, in offset order; after each fetch's batches it commits their
 * positions in its generation. The next fetch is sent while a fetch's batches are processed, and a fetch's
 * positions are committed while the next one's are processed, so the broker's reads, the commits and the
 * network overlap with the handler's work. Records come straight from the record batch decoder:
 * numbers for offsets and timestamps, views for keys and values.
 *
 * Group membership is the classic protocol by default (group-membership.ts), or with `groupProtocol: "consumer"` the
 * consumer group protocol of KIP-848 (consumer-group-heartbeat.ts). Under the classic protocol, one of two rebalance
 * protocols. Eager: on a rebalance the batch in process finishes, its position is committed, and the member gives every
 * partition up and joins again. Cooperative (KIP-429): the member joins in the background and keeps fetching and
 * processing its partitions meanwhile; it then gives up only those the new assignment takes away (their positions
 * committed first) and takes over only the new ones. The leader gives no member a partition another member still owns,
 * so a member that gave partitions up joins once more for them to move (the second of the two rebalances). A member
 * dropped from its generation has lost its partitions (under either protocol): nothing of them is committed, its
 * handler is told `lost` rather than `revoking`, and it joins owning none and takes its whole assignment over again; so
 * does one whose handler lost its work while the join was under way (it processes nothing more meanwhile), and one
 * whose take-over of the join's assignment failed. Under the consumer protocol a new assignment is taken as under eager.
 * Partitions without a committed offset start at their earliest offset. Lost connections are retried with a backoff,
 * without end: a partition whose leader is lost or moved is held back and fetched again from the same offset while the
 * others go on (partition-fetcher.ts);
 * protocol errors that retrying cannot cure, and errors thrown by the handlers, end the consumer through `failed`.
 */
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import { backoffMs } from "./backoff";
import { ConnectionPool } from "./connection-pool";
import { decodeSubscription } from "../kafka-protocol";
import { ConsumerGroupMembership } from "./consumer-group-heartbeat";
import { coordinatorUnavailable, GroupMembership, type GroupAssignor, type GroupMember, type TopicPartitionOffset } from "./group-membership";
import { BrokerConnectionError, MembershipLostError, PartitionUnavailableError } from "./kafka-client-errors";
import type { KafkaEndpoint } from "./kafka-endpoint";
import { PartitionFetcher, type FetchAnswer, type FetchedBatch, type IsolationLevel, type PartitionLag } from "./partition-fetcher";
import type { ConsumerGroupMetadata } from "./transactional-producer";
/**
 * How long a new assignment waits for its partitions' leaders to show in the metadata. Another member may have
 * created the topics a moment ago, and the leader assigns them by their known partition counts.
 */
const LEADER_WAIT_MS = 30_000;

/**
 * How a member rebalances (Kafka's RebalanceProtocol): give every partition up and join (eager), or keep the partitions
 * through the join and give up only those that move (cooperative, KIP-429).
 */
export type RebalanceProtocol = "eager" | "cooperative";

export interface GroupConsumerHandlers {
  /** A rebalance starts (not called before the first join); `assigned` follows. */
  rebalancing(): void;
  /**
   * This member's partitions in its new generation (all of them, also those it kept), and the group's committed
   * offsets of those it takes over that have one; fetching the new ones starts when this resolves. `kept`: under the
   * cooperative protocol, the partitions it held through the rebalance, whose fetching goes on from where it was (what
   * the handler holds of them stays valid); the others start again from the group's commits. The partitions that
   * moved away are no longer fetched, and their positions are committed.
   */
  assigned(partitions: Record<string, number[]>, committed: TopicPartitionOffset[], kept: Record<string, number[]>): Promise<void>;
  /**
   * Processes one partition's fetched records; its position is committed after the fetch's last batch. A handler
   * that keeps records for later (a task waiting for another partition) resolves with "held": the partition's
   * position is then what the handler reports through `processedUpTo`.
   */
  batch(batch: FetchedBatch): Promise<void | "held">;
  /**
   * The batches of one fetch are all processed (called after every answer, with batches or not): resolves once
   * their work is safe to commit (the consumer commits their positions next), so a handler can finish a whole
   * fetch's batches at once. A MembershipLostError from it (or from `batch`) drops the fetch's positions
   * uncommitted and joins the group again.
   */
  fetchProcessed?(): Promise<void>;
  /**
   * The member is about to give its partitions up (it joins the group again, or stops) in the generation that is
   * ending. A handler that commits the offsets itself (`commitOffsets: false`) commits what it has processed now.
   */
  revoking?(): Promise<void>;
  /**
   * The member's partitions were lost (Kafka's onPartitionsLost): it is no longer in its generation (its session ended,
   * it was removed or fenced) or it lost its work to another member, so they may be another's already. Nothing of
   * them is committed; the handler drops what it holds of them, uncommitted. Called instead of `revoking` (which is
   * called when this is absent, as Kafka's listener does by default); the member then joins owning none of them.
   */
  lost?(): Promise<void>;
  /** A fetch was answered; `lags` says how far behind each partition it answered for is. */
  fetched?(lags: readonly PartitionLag[]): void;
  /** The metadata to commit with a partition's offset (Kafka Streams commits the partition's time there). */
  offsetMetadata?(topic: string, partition: number): string | null;
  /** Positions the group accepted. */
  committed?(offsets: TopicPartitionOffset[]): void;
  /** The consumer stopped on an error it cannot retry. */
  failed(error: unknown): void;
}

export interface GroupConsumerOptions extends KafkaEndpoint {
  clientId: string;
  groupId: string;
  assignor: GroupAssignor;
  logger?: ComponentLogger;
  /**
   * `group.instance.id`: a static member (KIP-345), which does not leave the group when it stops; restarted with the
   * same id within the session timeout, it gets its partitions back with no rebalance. Absent: a dynamic member.
   */
  groupInstanceId?: string;
  /** Default 10 s. */
  sessionTimeoutMs?: number;
  /** How long the group waits for members to join a rebalance; default 60 s. */
  rebalanceTimeoutMs?: number;
  /** Default 3 s. */
  heartbeatIntervalMs?: number;
  /** How long the broker may hold a fetch that has no data; default 500 ms. */
  maxWaitMs?: number;
  /** Bound on one fetch answer; default 10 MiB. */
  maxBytes?: number;
  /** Bound on one partition's share of a fetch answer; default 1 MiB. */
  maxPartitionBytes?: number;
  /**
   * read_committed: only records of committed transactions, and committed offsets only once no transaction is
   * committing them (requireStable); default read_uncommitted.
   */
  isolationLevel?: IsolationLevel;
  /**
   * false: the consumer commits no offsets; its handler commits them with its own writes (a transactional producer's
   * sendOffsetsToTransaction with `groupMetadata()`), at the latest when `revoking` is called. Default true.
   */
  commitOffsets?: boolean;
  /** Partition counts the leader uses for topics the cluster's metadata does not list yet. */
  knownPartitionCount?: (topic: string) => number | undefined;
  /** Default eager; cooperative needs an assignor that never hands over a partition another member owns. */
  rebalanceProtocol?: RebalanceProtocol;
  /**
   * `group.protocol`: "classic" (JoinGroup/SyncGroup; the assignor's leader assigns), the default; or "consumer", the
   * consumer group protocol of Kafka 4 (KIP-848; ConsumerGroupHeartbeat, the coordinator assigns the topics the
   * assignor's subscription names). A group is one or the other: Kafka refuses a member of the other protocol while
   * the group has members (GROUP_ID_NOT_FOUND or INCONSISTENT_GROUP_PROTOCOL).
   */
  groupProtocol?: GroupProtocol;
  /** `group.remote.assignor` (consumer protocol only): the coordinator's assignor, "uniform" or "range"; default the group's. */
  groupRemoteAssignor?: string;
}

export type GroupProtocol = "classic" | "consumer";

type Settings = Required<
  Omit<GroupConsumerOptions, "logger" | "assignor" | "groupInstanceId" | "knownPartitionCount" | "groupProtocol" | "groupRemoteAssignor" | "bootstrapServers" | "clientId" | "groupId" | "tls" | "sasl" | "metadataMaxAgeMs" | "isolationLevel" | "commitOffsets" | "rebalanceProtocol">
>;

const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export class GroupConsumer {
  /** This member's id in the group; empty before it has joined. */
  get memberId(): string {
    return this.membership.memberId;
  }

  /** The generation this member last joined (the consumer protocol: its member epoch); -1 while not a member. */
  get generationId(): number {
    return this.membership.generationId;
  }

  /**
   * What a transactional producer sends with this member's offsets (sendOffsetsToTransaction, KIP-447), so that the
   * group coordinator refuses them once the member's generation is over: a zombie's commit is fenced.
   */
  groupMetadata(): ConsumerGroupMetadata {
    return { groupId: this.options.groupId, generationId: this.membership.generationId, memberId: this.membership.memberId, groupInstanceId: this.membership.groupInstanceId };
  }

  private readonly settings: Settings;
  private readonly logger: ComponentLogger;
  private readonly fetcher: PartitionFetcher;
  private readonly groupPool: ConnectionPool;
  private readonly membership: GroupMember;
  /** The classic membership of a member that rebalances cooperatively; undefined under eager or the consumer protocol. */
  private readonly cooperative?: GroupMembership;
  private assignment: { topic: string; partition: number }[] = [];
  /** Next offset to fetch, per partition; ahead of `processed` while a fetch's batches are in process. */
  private readonly fetchPositions = new Map<string, number>();
  /** Next offset to read after what the handler has processed, per partition, and whether it is committed. */
  private readonly processed = new Map<string, { topic: string; partition: number; offset: number; committed: boolean }>();
  /** Partitions not fetched until resumed (a handler's queue of them is full), by key. */
  private readonly pausedPartitions = new Set<string>();
  private prefetch?: Promise<FetchAnswer>;
  /** The commit of the last fetch's positions: the next fetch is processed while it is under way. */
  private committing: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Paused: no fetch, but the member keeps heartbeating, rejoins when asked and keeps its partitions. */
  private paused = false;
  private joining = false;
  /** Under the cooperative protocol: the join under way while the partitions are still fetched, and its outcome. */
  private backgroundJoin?: Promise<void>;
  private joined?: { partitions: Record<string, number[]> } | { error: unknown };
  /** Work was lost (membershipLost) while a background join was under way: its outcome is not taken over as it is. */
  private lostWhileJoining = false;
  /** The current assignment was handed over (a later rejoin is a rebalance to report). */
  private settled = false;
  private loop?: Promise<void>;
  private wake?: () => void;

  constructor(
    private readonly options: GroupConsumerOptions,
    private readonly handlers: GroupConsumerHandlers,
  ) {
    this.settings = {
      sessionTimeoutMs: options.sessionTimeoutMs ?? 10_000,
      rebalanceTimeoutMs: options.rebalanceTimeoutMs ?? 60_000,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 3_000,
      maxWaitMs: options.maxWaitMs ?? 500,
      maxBytes: options.maxBytes ?? 10 * 1024 * 1024,
      maxPartitionBytes: options.maxPartitionBytes ?? 1024 * 1024,
      retryBackoffMs: options.retryBackoffMs ?? 100,
      retryBackoffMaxMs: options.retryBackoffMaxMs ?? 1_000,
    };
    this.logger = options.logger ?? silentLogger;
    this.fetcher = new PartitionFetcher({
      bootstrapServers: options.bootstrapServers,
      clientId: options.clientId,
      tls: options.tls,
      sasl: options.sasl,
      maxWaitMs: this.settings.maxWaitMs,
      maxBytes: this.settings.maxBytes,
      maxPartitionBytes: this.settings.maxPartitionBytes,
      isolationLevel: options.isolationLevel,
      retryBackoffMs: this.settings.retryBackoffMs,
      retryBackoffMaxMs: this.settings.retryBackoffMaxMs,
      metadataMaxAgeMs: options.metadataMaxAgeMs,
      logger: this.logger,
    });
    // A JoinGroup is answered only once the rebalance completes, so this pool's requests may take that long.
    this.groupPool = new ConnectionPool({
      clientId: options.clientId,
      tls: options.tls,
      sasl: options.sasl,
      connectTimeoutMs: 10_000,
      requestTimeoutMs: this.settings.rebalanceTimeoutMs + 5_000,
      maxResponseBytes: 16 * 1024 * 1024,
    });
    const classic = options.groupProtocol === "consumer" ? undefined : this.classicMembership();
    this.membership = classic ?? this.consumerProtocolMembership();
    // Cooperative rebalancing (KIP-429) belongs to the classic protocol: under the consumer protocol the coordinator
    // moves partitions itself.
    this.cooperative = options.rebalanceProtocol === "cooperative" ? classic : undefined;
  }

  private consumerProtocolMembership(): GroupMember {
    const options = this.options;
    return new ConsumerGroupMembership(
      this.groupPool,
      {
        groupId: options.groupId,
        // The coordinator assigns: of the assignor only its subscription's topics count.
        topics: decodeSubscription(options.assignor.subscription()).topics,
        serverAssignor: options.groupRemoteAssignor ?? null,
        groupInstanceId: options.groupInstanceId,
        rebalanceTimeoutMs: this.settings.rebalanceTimeoutMs,
        retryBackoffMs: this.settings.retryBackoffMs,
        brokers: () => this.groupBrokers(),
        topicNames: async (topics) => {
          await this.fetcher.metadata.refresh(topics);
          return (topicId) => this.fetcher.metadata.topicName(topicId);
        },
        requireStable: options.isolationLevel === "read_committed",
        logger: this.logger,
      },
      () => this.wake?.(),
    );
  }

  private classicMembership(): GroupMembership {
    const options = this.options;
    return new GroupMembership(
      this.groupPool,
      {
        groupId: options.groupId,
        assignor: options.assignor,
        groupInstanceId: options.groupInstanceId,
        sessionTimeoutMs: this.settings.sessionTimeoutMs,
        rebalanceTimeoutMs: this.settings.rebalanceTimeoutMs,
        heartbeatIntervalMs: this.settings.heartbeatIntervalMs,
        retryBackoffMs: this.settings.retryBackoffMs,
        brokers: () => this.groupBrokers(),
        partitionCounts: async (topics) => {
          await this.fetcher.metadata.refresh(topics);
          return (topic) => this.fetcher.metadata.partitionCount(topic) ?? options.knownPartitionCount?.(topic);
        },
        requireStable: options.isolationLevel === "read_committed",
        logger: this.logger,
      },
      () => this.wake?.(),
    );
  }

  /** The brokers to ask where the group's coordinator is. */
  private groupBrokers(): string[] {
    return [...new Set([...this.fetcher.pool.openAddresses(), ...this.options.bootstrapServers])];
  }

  /** Reaches a bootstrap broker (or rejects naming it), then joins and consumes in the background. */
  async start(): Promise<void> {
    let lastError: unknown;
    for (const address of this.options.bootstrapServers) {
      try {
        await this.fetcher.pool.get(address);
        lastError = undefined;
        break;
      } catch (error) {
        lastError = error;
      }
    }
    if (lastError !== undefined) throw lastError;
    this.loop = this.run();
  }

  /** Stops fetching after the fetch in process; the membership and the assignment stay. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake?.();
  }

  /**
   * Has the group rebalance (Kafka's Consumer.enforceRebalance): the member joins again after the batch in process.
   * Under the cooperative protocol it keeps processing its partitions through the join and gives up only those that
   * move; under eager it gives them all up first. Nothing under the consumer protocol, whose coordinator assigns.
   */
  enforceRebalance(): void {
    if (this.stopped) return;
    this.membership.enforceRebalance();
    this.wake?.();
  }

  /** Fetches no more of one partition until resumed; the others go on (Kafka's consumer's pause of partitions). */
  pausePartition(topic: string, partition: number): void {
    this.pausedPartitions.add(key(topic, partition));
  }

  resumePartition(topic: string, partition: number): void {
    this.pausedPartitions.delete(key(topic, partition));
  }

  /**
   * The handler has processed a partition's records up to `offset` (the next one to process): records it held
   * back from a batch (see GroupConsumerHandlers.batch). Committed with the fetch's positions.
   */
  processedUpTo(topic: string, partition: number, offset: number): void {
    const entry = this.processed.get(key(topic, partition));
    if (entry === undefined || entry.offset === offset) return;
    entry.offset = offset;
    entry.committed = false;
  }

  /** Lets the batch in process finish and commit, leaves the group (unless static), and closes the connections. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wake?.();
    // A JoinGroup in flight may wait for a whole rebalance: closing its connection ends it now. The pool stays open
    // for the LeaveGroup below: a member that did not leave would hold the group's next rebalance up until its
    // session ended (an instance's application stopped, or restarted, in the middle of a rebalance).
    if (this.joining) this.groupPool.dropConnections();
    await this.loop;
    await this.backgroundJoin;
    await this.settledCommit().catch((error) => this.logger.warn("committing the last positions failed", { groupId: this.options.groupId, error: String(error) }));
    if (this.settled) await this.handlers.revoking?.().catch((error) => this.logger.warn("committing the last positions failed", { groupId: this.options.groupId, error: String(error) }));
    this.membership.stopHeartbeats();
    await this.membership.leave().catch((error) => this.logger.debug("leaving the group failed", { groupId: this.options.groupId, error: String(error) }));
    this.groupPool.close();
    this.fetcher.close();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (this.joined) await this.completeJoin();
        else if (this.membership.rejoinNeeded && this.backgroundJoin === undefined) {
          if (this.keepsPartitionsThroughJoin()) this.joinInBackground();
          else await this.rejoin();
        } else if (this.paused) await this.idle();
        // Its work lost while the join is under way: nothing it fetches has a task to go to until it joins again.
        else if (this.lostWhileJoining) await this.sleep(this.settings.maxWaitMs);
        else if (this.assignment.length === 0) await this.sleep(this.settings.maxWaitMs);
        else await this.fetchAndProcess();
        failures = 0;
      } catch (error) {
        await this.dropPrefetch();
        if (this.stopped) break;
        if (error instanceof MembershipLostError) {
          this.membershipLost(error);
          continue;
        }
        if (!(error instanceof BrokerConnectionError) && !(error instanceof PartitionUnavailableError) && !coordinatorUnavailable(error)) {
          this.membership.stopHeartbeats();
          this.handlers.failed(error);
          return;
        }
        failures++;
        const backoff = backoffMs(this.settings.retryBackoffMs, failures, this.settings.retryBackoffMaxMs);
        this.logger.warn("consumer cannot reach a broker, a partition's leader or the group's coordinator; retrying", { groupId: this.options.groupId, error: error.message, backoffMs: backoff });
        this.membership.forgetCoordinator();
        await this.sleep(backoff);
      }
    }
  }

  private async rejoin(): Promise<void> {
    await this.dropPrefetch();
    // A failed commit's positions are still pending: the commit below takes them.
    await this.settledCommit().catch(() => undefined);
    if (this.membership.partitionsLost) await this.partitionsLost();
    else {
      await this.commitProcessed();
      if (this.settled) await this.handlers.revoking?.();
    }
    // Reported once per rebalance, and not for the first join: the member has no partitions to give up yet.
    if (this.settled) this.handlers.rebalancing();
    this.settled = false;
    this.assignment = [];
    this.joining = true;
    let partitions: Record<string, number[]>;
    try {
      partitions = await this.membership.join();
    } finally {
      this.joining = false;
    }
    try {
      await this.takeOver(partitions);
    } catch (error) {
      // Half taken over (positions unknown, or the handler not told): join again rather than fetch from guesses.
      this.assignment = [];
      this.membership.requestRejoin();
      throw error;
    }
    this.settled = true;
  }

  /**
   * Out of its generation, the member's partitions are not its own: their positions are not committed (the commit
   * would be refused, or land after their new owner's) and the handler drops its work on them; the join that follows
   * reports none as owned (the assignment is emptied first), as Kafka's consumer does.
   */
  private async partitionsLost(): Promise<void> {
    for (const entry of this.processed.values()) entry.committed = true;
    if (!this.settled) return;
    this.logger.warn("this member's partitions were lost (it is out of its generation, or lost its work); dropping their uncommitted work and joining again", {
      groupId: this.options.groupId,
      partitions: this.assignment,
    });
    await (this.handlers.lost ?? this.handlers.revoking)?.();
  }

  /** Under the cooperative protocol, a member that holds partitions keeps them while it joins, unless it lost them. */
  private keepsPartitionsThroughJoin(): boolean {
    return this.cooperative !== undefined && this.settled && !this.cooperative.partitionsLost;
  }

  /** Joins while the loop goes on fetching; the loop takes the outcome over between two fetches (completeJoin). */
  private joinInBackground(): void {
    this.handlers.rebalancing();
    const owned: Record<string, number[]> = {};
    for (const { topic, partition } of this.assignment) (owned[topic] ??= []).push(partition);
    this.joining = true;
    this.backgroundJoin = this.cooperative!
      .join(owned)
      .then(
        (partitions) => void (this.joined = { partitions }),
        (error: unknown) => void (this.joined = { error }),
      )
      .finally(() => {
        this.joining = false;
        this.backgroundJoin = undefined;
        this.wake?.();
      });
  }

  /**
   * Takes a background join's assignment over: the partitions that moved away are committed and given up, the new ones
   * taken over. A member that gave some up joins again, so that the leader can hand them to their new owner.
   */
  private async completeJoin(): Promise<void> {
    const outcome = this.joined!;
    this.joined = undefined;
    const lost = this.lostWhileJoining;
    this.lostWhileJoining = false;
    if ("error" in outcome) throw outcome.error;
    const { partitions } = outcome;
    await this.dropPrefetch();
    await this.settledCommit().catch(() => undefined);
    if (lost) {
      // Lost meanwhile (its work could not be committed): nothing of the old positions holds.
      this.assignment = [];
      this.membership.requestRejoin();
      return;
    }
    try {
      const kept = new Set(Object.entries(partitions).flatMap(([topic, list]) => list.map((partition) => key(topic, partition))));
      const revoked = this.assignment.filter(({ topic, partition }) => !kept.has(key(topic, partition)));
      if (revoked.length > 0) {
        await this.commitProcessed();
        await this.handlers.revoking?.();
        this.logger.info("giving up partitions that move to another member", { groupId: this.options.groupId, generationId: this.membership.generationId, partitions: revoked });
        for (const { topic, partition } of revoked) this.forget(key(topic, partition));
      }
      await this.takeOver(partitions, this.assignment.filter(({ topic, partition }) => kept.has(key(topic, partition))));
      if (revoked.length > 0) this.cooperative?.rejoinKeepingPartitions();
    } catch (error) {
      // Half taken over (a commit, the positions or the handler failed, say while the broker restarts): the join
      // succeeded, so nothing would join again, and the member would fetch on from its old assignment, never told its
      // new one (its application REBALANCING for good). It gives everything up and joins again, as eager's rejoin does.
      this.assignment = [];
      this.membership.requestRejoin();
      throw error;
    }
  }

  private forget(partitionKey: string): void {
    this.fetchPositions.delete(partitionKey);
    this.processed.delete(partitionKey);
    this.pausedPartitions.delete(partitionKey);
  }

  /**
   * Positions the partitions of the new assignment that this member does not hold yet (all but `held`) at the group's
   * commits (else the earliest offsets) and hands the assignment over.
   */
  private async takeOver(partitions: Record<string, number[]>, kept: readonly { topic: string; partition: number }[] = []): Promise<void> {
    const held = new Set(kept.map(({ topic, partition }) => key(topic, partition)));
    for (const partitionKey of [...this.fetchPositions.keys(), ...this.processed.keys()]) if (!held.has(partitionKey)) this.forget(partitionKey);
    const added: Record<string, number[]> = {};
    for (const [topic, list] of Object.entries(partitions)) {
      const fresh = list.filter((partition) => !held.has(key(topic, partition)));
      if (fresh.length > 0) added[topic] = fresh;
    }
    const missing: Record<string, number[]> = {};
    const committed = Object.keys(added).length === 0 ? [] : await this.membership.committed(added);
    this.logger.debug("taking over partitions at their committed offsets", { groupId: this.options.groupId, generationId: this.membership.generationId, committed });
    for (const { topic, partition, offset } of committed) {
      if (offset >= 0) this.position(topic, partition, offset);
      else (missing[topic] ??= []).push(partition);
    }
    await this.untilLed(added);
    for (const { topic, partition, offset } of await this.fetcher.earliestOffsets(missing)) this.position(topic, partition, offset);
    const keptByTopic: Record<string, number[]> = {};
    for (const { topic, partition } of kept) (keptByTopic[topic] ??= []).push(partition);
    await this.handlers.assigned(partitions, committed.filter(({ offset }) => offset >= 0), keptByTopic);
    this.assignment = Object.entries(partitions).flatMap(([topic, list]) => list.map((partition) => ({ topic, partition })));
  }

  /** Refreshes the metadata of `partitions` until each has a known leader, for a while (LEADER_WAIT_MS). */
  private async untilLed(partitions: Record<string, number[]>): Promise<void> {
    if (Object.keys(partitions).length === 0) return;
    const deadline = Date.now() + LEADER_WAIT_MS;
    for (let attempt = 1; ; attempt++) {
      await this.fetcher.metadata.refresh(Object.keys(partitions));
      const unled = Object.entries(partitions).find(([topic, list]) => list.some((partition) => this.fetcher.metadata.route(topic, partition).address === null));
      if (!unled || this.stopped || Date.now() >= deadline) return;
      if (attempt === 1) this.logger.debug("waiting for the leaders of assigned partitions", { groupId: this.options.groupId, topic: unled[0] });
      await this.sleep(backoffMs(this.settings.retryBackoffMs, attempt, this.settings.retryBackoffMaxMs));
    }
  }

  private position(topic: string, partition: number, offset: number): void {
    this.fetchPositions.set(key(topic, partition), offset);
    this.processed.set(key(topic, partition), { topic, partition, offset, committed: true });
  }

  private async fetchAndProcess(): Promise<void> {
    const answer = await (this.prefetch ?? this.fetchOrWait());
    this.prefetch = undefined;
    // A fetch answered after a pause is dropped: its records are fetched again after resume.
    if (this.givingUp || this.paused) return;
    this.handlers.fetched?.(answer.lags);
    // The failed partitions are held back and fetched again later; the others' batches go on now.
    for (const { topic, partition, offset } of await this.fetcher.recover(answer.errors, "fetching")) {
      this.logger.warn("fetch position out of range; restarting at the earliest offset", { topic, partition, offset });
      this.position(topic, partition, offset);
    }
    for (const batch of answer.batches) this.fetchPositions.set(key(batch.topic, batch.partition), batch.nextOffset);
    this.prefetch = this.fetchable().length > 0 ? this.fetch() : undefined;
    // Awaited by the next round (or dropped); this only keeps a failure from counting as unhandled meanwhile.
    this.prefetch?.catch(() => undefined);
    let processed = 0;
    for (const batch of answer.batches) {
      if (this.givingUp) break;
      const held = await this.handlers.batch(batch);
      processed++;
      const entry = this.processed.get(key(batch.topic, batch.partition));
      if (entry !== undefined && held !== "held") {
        entry.offset = batch.nextOffset;
        entry.committed = false;
      }
    }
    // Work done is always finished (a member that lost its partitions meanwhile learns so from that commit); an
    // answer without batches still lets the handler work through what it holds, unless the member is leaving.
    if (processed > 0 || !this.givingUp) await this.handlers.fetchProcessed?.();
    // One commit at a time, in order; a failed one throws here, a round late, and its positions go with the next.
    await this.settledCommit();
    // While a cooperative join is under way the generation is changing: the positions wait for the join's end.
    if (this.backgroundJoin !== undefined) return;
    this.committing = this.commitProcessed();
    this.committing.catch(() => undefined);
  }

  /**
   * This member lost what it was processing to another (a MembershipLostError of a handler's, or of the caller's own
   * work): the positions processed since the last commit are not committed, and the member joins the group again.
   */
  membershipLost(error: MembershipLostError): void {
    this.logger.warn("this member lost what it was processing to another; joining the group again", { groupId: this.options.groupId, error: error.message });
    // The rejoin's takeover fetches from the group's commits.
    for (const entry of this.processed.values()) entry.committed = true;
    if (this.rebalanceInProgress) this.lostWhileJoining = true;
    this.membership.requestRejoin();
    this.wake?.();
  }

  /** Whether the member is to join the group again before it fetches more. */
  get rejoinPending(): boolean {
    return this.membership.rejoinNeeded;
  }

  /**
   * A join is under way while this member goes on processing (cooperative protocol): its generation is changing, so
   * nothing that names it (a transaction's offsets) is to be committed until the join ends, as in Kafka Streams.
   */
  get rebalanceInProgress(): boolean {
    return this.backgroundJoin !== undefined || this.joined !== undefined;
  }

  /**
   * Whether the member is to stop processing what it fetched: it stops, gives every partition up to join again, or lost
   * its work while a cooperative join is under way (the handler closed what the fetched records were for).
   */
  private get givingUp(): boolean {
    return this.stopped || this.lostWhileJoining || (this.membership.rejoinNeeded && this.backgroundJoin === undefined && !this.keepsPartitionsThroughJoin());
  }

  /** Waits for the commit under way; its failure is thrown. */
  private settledCommit(): Promise<void> {
    const committing = this.committing;
    this.committing = Promise.resolve();
    return committing;
  }

  private async commitProcessed(): Promise<void> {
    if (this.options.commitOffsets === false) return;
    const pending: TopicPartitionOffset[] = [];
    const metadataOf = this.handlers.offsetMetadata;
    for (const { topic, partition, offset, committed } of this.processed.values()) {
      if (!committed) pending.push({ topic, partition, offset, metadata: metadataOf?.(topic, partition) ?? null });
    }
    if (pending.length === 0 || this.membership.generationId < 0) return;
    if (!(await this.membership.commit(pending))) return;
    for (const { topic, partition, offset } of pending) {
      // Positions may have moved on (a later fetch) or been taken over (a rejoin) while this commit was under way.
      const entry = this.processed.get(key(topic, partition));
      if (entry?.offset === offset) entry.committed = true;
    }
    this.handlers.committed?.(pending);
  }

  /** One Fetch per leader of the assigned partitions not paused, at their fetch positions. */
  private fetch(): Promise<FetchAnswer> {
    return this.fetcher.fetch(this.fetchable().map(({ topic, partition }) => ({ topic, partition, offset: this.fetchPositions.get(key(topic, partition)) ?? 0 })));
  }

  /** A fetch, or while every partition is paused a round without one: the handler works through what it holds. */
  private async fetchOrWait(): Promise<FetchAnswer> {
    if (this.fetchable().length > 0) return this.fetch();
    await this.sleep(this.settings.maxWaitMs);
    return { batches: [], errors: [], lags: [] };
  }

  private fetchable(): { topic: string; partition: number }[] {
    if (this.pausedPartitions.size === 0) return this.assignment;
    return this.assignment.filter(({ topic, partition }) => !this.pausedPartitions.has(key(topic, partition)));
  }

  /** While paused: the fetch sent ahead is dropped (its records were not taken), and the member waits. */
  private async idle(): Promise<void> {
    await this.dropPrefetch();
    await this.sleep(this.settings.maxWaitMs);
  }

  private async dropPrefetch(): Promise<void> {
    const prefetch = this.prefetch;
    this.prefetch = undefined;
    await prefetch?.catch(() => undefined);
  }

  /** Waits `ms`, or less when the consumer stops. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
