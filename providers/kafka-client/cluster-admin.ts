/**
 * The questions and changes a streams runtime puts to its cluster besides producing and consuming, as Kafka's Admin
 * client makes them: which topics exist and their partition counts, creating topics with their configs, the log
 * start and end of partitions, a group's committed offsets and its members, deleting records, a topic's configs.
 * Each request goes where Kafka answers it — any broker (which forwards topic creation to the controller), a
 * partition's leader, the group's coordinator — over one connection pool and the metadata it learns. A lost
 * connection, a leader or coordinator that moved, a topic a broker does not know yet are retried with a backoff
 * until `apiTimeoutMs` has passed (Kafka's default.api.timeout.ms); an error no retry cures is thrown at once.
 */
import { ErrorCode, errorCodeName } from "../kafka-protocol";
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import { backoffMs } from "./backoff";
import type { BrokerConnection } from "./broker-connection";
import { CREATE_TOPICS, DELETE_RECORDS, DESCRIBE_CONFIGS, DESCRIBE_GROUPS } from "./client-apis";
import { ClusterMetadata } from "./cluster-metadata";
import { fetchCommittedOffsets } from "./committed-offsets";
import { ConnectionPool } from "./connection-pool";
import { CoordinatorKeyType, CoordinatorLocator } from "./coordinator-locator";
import { COORDINATOR_MOVED, type TopicPartitionOffset } from "./group-membership";
import { BrokerConnectionError, ClusterAdminError, GroupError, PartitionUnavailableError } from "./kafka-client-errors";
import type { KafkaEndpoint } from "./kafka-endpoint";
import { EARLIEST, LATEST, offsetsAt, partitionsByLeader } from "./partition-leaders";
import { RETRIABLE_CODES } from "./retriable-error-codes";

export interface ClusterAdminOptions extends KafkaEndpoint {
  clientId: string;
  /** How long one call keeps trying; default 60 s, as Kafka's default.api.timeout.ms. */
  apiTimeoutMs?: number;
  logger?: ComponentLogger;
}

export interface NewTopic {
  name: string;
  partitions: number;
  /** -1: the broker's default.replication.factor. */
  replicationFactor: number;
  /** Topic configs (`cleanup.policy`, `retention.ms`, …) over the broker's defaults. */
  configs?: Readonly<Record<string, string>>;
}

/** Where a partition's log starts and ends. */
export interface PartitionEnds {
  /** The log start offset. */
  low: number;
  /** The log end offset (high watermark). */
  high: number;
}

/** A consumer group as its coordinator describes it (DescribeGroups). */
export interface GroupDescription {
  groupId: string;
  /** `Stable`, `PreparingRebalance`, `CompletingRebalance`, `Empty` or `Dead`. */
  state: string;
  members: GroupMemberDescription[];
}

export interface GroupMemberDescription {
  memberId: string;
  clientId: string;
  clientHost: string;
  /** The member's subscription, as its protocol writes it (the consumer protocol for consumers). */
  metadata: Buffer;
  /** The assignment the leader made for it; empty before one. */
  assignment: Buffer;
}

/** Codes that mean "ask again in a moment" besides a moved leader: a coordinator or controller moving, a quota. */
const ALSO_RETRIABLE: ReadonlySet<number> = new Set([...COORDINATOR_MOVED, ErrorCode.NOT_CONTROLLER, ErrorCode.THROTTLING_QUOTA_EXCEEDED]);
const isRetriableCode = (code: number) => RETRIABLE_CODES.has(code) || ALSO_RETRIABLE.has(code);

/** A resource type of DescribeConfigs. */
const TOPIC_RESOURCE = 2;
/** How long the broker may take to create topics or delete records before it answers REQUEST_TIMED_OUT. */
const BROKER_TIMEOUT_MS = 30_000;

/** Thrown by an attempt that is worth another one. */
class TryAgain extends Error {}

export class ClusterAdmin {
  private readonly pool: ConnectionPool;
  private readonly metadata: ClusterMetadata;
  private readonly coordinators = new Map<string, CoordinatorLocator>();
  private readonly apiTimeoutMs: number;
  private readonly retryBackoffMs: number;
  private readonly retryBackoffMaxMs: number;
  private readonly logger: ComponentLogger;
  private readonly pauses = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;

  constructor(private readonly options: ClusterAdminOptions) {
    this.apiTimeoutMs = options.apiTimeoutMs ?? 60_000;
    this.retryBackoffMs = options.retryBackoffMs ?? 100;
    this.retryBackoffMaxMs = options.retryBackoffMaxMs ?? 1_000;
    this.logger = options.logger ?? silentLogger;
    this.pool = new ConnectionPool({
      clientId: options.clientId,
      tls: options.tls,
      sasl: options.sasl,
      connectTimeoutMs: 10_000,
      // A creation or deletion the broker holds up to BROKER_TIMEOUT_MS is not a dead connection.
      requestTimeoutMs: BROKER_TIMEOUT_MS + 10_000,
      maxResponseBytes: 64 * 1024 * 1024,
    });
    this.metadata = new ClusterMetadata(options.bootstrapServers, this.pool, options.metadataMaxAgeMs);
  }

  /** The names of the cluster's topics. */
  listTopics(): Promise<string[]> {
    return this.retrying("listing the topics", () => this.metadata.refresh("all"));
  }

  /** The partition count of each of `topics` the cluster has; those it does not have are left out. */
  partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    return this.retrying(`the partitions of ${topics.join(", ")}`, async () => {
      const known = await this.metadata.refresh(topics);
      return new Map(known.map((topic) => [topic, this.metadata.partitionCount(topic)!]));
    });
  }

  /**
   * Creates `topics` in one request and resolves once every partition of each has a leader, as every broker asked
   * then sees it. A topic that exists already (another instance created it a moment before) is no error.
   */
  async createTopics(topics: readonly NewTopic[]): Promise<void> {
    if (topics.length === 0) return;
    const names = topics.map((topic) => topic.name);
    await this.retrying(`creating topics ${names.join(", ")}`, async () => {
      const answer = await this.metadata.askAnyBroker((connection) =>
        connection.request(CREATE_TOPICS, {
          topics: topics.map(({ name, partitions, replicationFactor, configs }) => ({
            name,
            numPartitions: partitions,
            replicationFactor,
            assignments: [],
            configs: Object.entries(configs ?? {}).map(([key, value]) => ({ name: key, value })),
          })),
          timeoutMs: BROKER_TIMEOUT_MS,
          validateOnly: false,
        }),
      );
      for (const topic of answer.topics) {
        if (topic.errorCode === ErrorCode.NONE || topic.errorCode === ErrorCode.TOPIC_ALREADY_EXISTS) continue;
        this.check(topic.errorCode, `creating topic ${topic.name}`, topic.errorMessage);
      }
    });
    // A cluster's brokers learn of a new topic one after the other: a broker that does not know it yet is asked again.
    await this.retrying(`the leaders of new topics ${names.join(", ")}`, async () => {
      await this.metadata.refresh(names);
      const leaderless = names.filter((name) => !this.metadata.isLed(name));
      if (leaderless.length > 0) throw new TryAgain(`topics ${leaderless.join(", ")} have no leaders yet`);
    });
  }

  /** Where each partition of `topic` starts and ends, by partition; none for a topic the cluster does not have. */
  offsetsOf(topic: string): Promise<Map<number, PartitionEnds>> {
    return this.retrying(`the offsets of topic ${topic}`, async () => {
      const [known] = await this.metadata.refresh([topic]);
      if (known === undefined) {
        // A topic the metadata lists with a retriable error (its leaders being elected after a broker restart) is
        // there but not yet answerable: asked again, never taken for a topic without partitions.
        const { errorCode } = this.metadata.route(topic, 0);
        if (errorCode !== ErrorCode.UNKNOWN_TOPIC_OR_PARTITION && isRetriableCode(errorCode)) throw new TryAgain(`the offsets of topic ${topic}: ${errorCodeName(errorCode)}`);
        return new Map();
      }
      const partitionCount = this.metadata.partitionCount(topic)!;
      if (partitionCount === 0) throw new TryAgain(`the metadata lists no partition of topic ${topic} yet`);
      const partitions = { [topic]: Array.from({ length: partitionCount }, (_, partition) => partition) };
      const [lows, highs] = await Promise.all([EARLIEST, LATEST].map((at) => offsetsAt(this.metadata, this.pool, partitions, at, 0)));
      const ends = new Map<number, PartitionEnds>(lows.map(({ partition, offset }) => [partition, { low: offset, high: -1 }]));
      for (const { partition, offset } of highs) ends.get(partition)!.high = offset;
      return ends;
    });
  }

  /** The group's committed offset of each of `partitions` (by topic); -1 where it has none. */
  committedOffsets(groupId: string, partitions: Readonly<Record<string, readonly number[]>>): Promise<TopicPartitionOffset[]> {
    return this.retrying(`the committed offsets of group ${groupId}`, async () => {
      const offsets = await this.askCoordinator(groupId, (coordinator) => fetchCommittedOffsets(coordinator, groupId, partitions, { retriable: (code) => this.coordinatorMoved(groupId, code) }));
      if (offsets === undefined) throw new TryAgain(`the coordinator of group ${groupId} moved`);
      return offsets;
    });
  }

  /** The group's state and members; a group nobody joined is `Dead` with none. */
  describeGroup(groupId: string): Promise<GroupDescription> {
    return this.retrying(`describing group ${groupId}`, async () => {
      const answer = await this.askCoordinator(groupId, (coordinator) => coordinator.request(DESCRIBE_GROUPS, { groups: [groupId], includeAuthorizedOperations: false }));
      const group = answer.groups.find((candidate) => candidate.groupId === groupId);
      if (group === undefined) throw new ClusterAdminError(`describing group ${groupId}`, ErrorCode.UNKNOWN_SERVER_ERROR, "the coordinator did not describe it");
      if (this.coordinatorMoved(groupId, group.errorCode)) throw new TryAgain(`the coordinator of group ${groupId} moved`);
      this.check(group.errorCode, `describing group ${groupId}`);
      return {
        groupId,
        state: group.groupState,
        members: group.members.map(({ memberId, clientId, clientHost, memberMetadata, memberAssignment }) => ({ memberId, clientId, clientHost, metadata: memberMetadata, assignment: memberAssignment })),
      };
    });
  }

  /** Deletes the records of each partition of `topic` before the offset given for it (DeleteRecords, to the leaders). */
  deleteRecords(topic: string, before: ReadonlyMap<number, number>): Promise<void> {
    return this.retrying(`deleting records of topic ${topic}`, async () => {
      await this.metadata.refresh(this.metadata.toRefresh([topic]));
      for (const [address, topics] of partitionsByLeader(this.metadata, { [topic]: [...before.keys()] })) {
        const answer = await (await this.pool.get(address)).request(DELETE_RECORDS, {
          topics: [...topics].map(([name, partitions]) => ({ name, partitions: partitions.map((partitionIndex) => ({ partitionIndex, offset: BigInt(before.get(partitionIndex)!) })) })),
          timeoutMs: BROKER_TIMEOUT_MS,
        });
        for (const { name, partitions } of answer.topics) for (const { partitionIndex, errorCode } of partitions) this.check(errorCode, `deleting records of topic ${name} partition ${partitionIndex}`);
      }
    });
  }

  /** The topic's configs, by name, as the broker resolves them (its own and the defaults it takes); null: no value. */
  describeTopicConfigs(topic: string): Promise<Map<string, string | null>> {
    return this.retrying(`the configs of topic ${topic}`, async () => {
      const answer = await this.metadata.askAnyBroker((connection) =>
        connection.request(DESCRIBE_CONFIGS, { resources: [{ resourceType: TOPIC_RESOURCE, resourceName: topic, configurationKeys: null }], includeSynonyms: false, includeDocumentation: false }),
      );
      const [result] = answer.results;
      if (result === undefined) throw new ClusterAdminError(`the configs of topic ${topic}`, ErrorCode.UNKNOWN_SERVER_ERROR, "the broker did not describe them");
      this.check(result.errorCode, `the configs of topic ${topic}`, result.errorMessage);
      return new Map(result.configs.map(({ name, value }) => [name, value]));
    });
  }

  /** Closes the connections; calls under way fail, and so do later ones. */
  close(): void {
    this.closed = true;
    for (const { timer, resolve } of this.pauses) {
      clearTimeout(timer);
      resolve();
    }
    this.pool.close();
  }

  /** Retries `attempt` while it fails with what a retry may cure, until the call's time is up. */
  private async retrying<T>(doing: string, attempt: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.apiTimeoutMs;
    for (let failures = 1; ; failures++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof TryAgain || error instanceof BrokerConnectionError || error instanceof PartitionUnavailableError) || this.closed) throw error;
        const pauseMs = backoffMs(this.retryBackoffMs, failures, this.retryBackoffMaxMs);
        if (Date.now() + pauseMs > deadline) throw new Error(`${doing} did not succeed within ${this.apiTimeoutMs} ms: ${error.message}`, { cause: error });
        this.logger.debug("admin request retry", { doing, failures, backoffMs: pauseMs, error: error.message });
        if (error instanceof PartitionUnavailableError) await this.metadata.refresh([error.topic]).catch(() => undefined);
        await this.pause(pauseMs);
      }
    }
  }

  /** Nothing for no error; TryAgain for a retriable one; otherwise a ClusterAdminError. */
  private check(errorCode: number, doing: string, message?: string | null): void {
    if (errorCode === ErrorCode.NONE) return;
    if (isRetriableCode(errorCode)) throw new TryAgain(`${doing}: ${errorCodeName(errorCode)}`);
    throw new ClusterAdminError(doing, errorCode, message ?? "");
  }

  /** `ask`'s answer from the group's coordinator; a lost connection forgets where it is, to be found again. */
  private async askCoordinator<T>(groupId: string, ask: (coordinator: BrokerConnection) => Promise<T>): Promise<T> {
    const locator = this.coordinatorOf(groupId);
    try {
      return await ask(await locator.connection());
    } catch (error) {
      if (error instanceof BrokerConnectionError) locator.forget();
      throw error;
    }
  }

  private coordinatorOf(groupId: string): CoordinatorLocator {
    let locator = this.coordinators.get(groupId);
    if (locator === undefined) {
      const brokers = () => [...new Set([...this.pool.openAddresses(), ...this.options.bootstrapServers])];
      const refused = (errorCode: number) => (isRetriableCode(errorCode) ? new TryAgain(`no coordinator of group ${groupId} yet: ${errorCodeName(errorCode)}`) : new GroupError(groupId, "FindCoordinator", errorCode));
      locator = new CoordinatorLocator(this.pool, brokers, { key: groupId, keyType: CoordinatorKeyType.GROUP }, refused);
      this.coordinators.set(groupId, locator);
    }
    return locator;
  }

  private coordinatorMoved(groupId: string, errorCode: number): boolean {
    if (!COORDINATOR_MOVED.has(errorCode)) return false;
    this.coordinators.get(groupId)?.forget();
    return true;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = { timer: setTimeout(() => (this.pauses.delete(entry), resolve()), ms), resolve };
      this.pauses.add(entry);
    });
  }
}
