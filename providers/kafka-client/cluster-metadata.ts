/**
 * What a client knows of the cluster: its brokers' addresses and the leader (and leader epoch) of each partition of
 * the topics it reads or writes, learnt with Metadata requests (never creating topics), refreshed on demand and once
 * older than metadata.max.age.ms.
 */
import { ErrorCode } from "../kafka-protocol";
import { METADATA } from "./client-apis";
import type { BrokerConnection } from "./broker-connection";
import type { ConnectionPool } from "./connection-pool";
import { BrokerConnectionError } from "./kafka-client-errors";

interface TopicLayout {
  /** The topic's error in the last answer; 0 when it is known. */
  errorCode: number;
  /** Leader node id per partition index; -1 without a leader. */
  leaders: number[];
  /** The leader's epoch per partition index, as the metadata told it. */
  leaderEpochs: number[];
  /** Kafka's id of the topic (Metadata v10+); ZERO_UUID from a broker that gives none. */
  topicId: string;
}

/** Where a partition's records go: its leader's address, or the error code that stands in the way. */
export type Route = { address: string; errorCode: 0 } | { address: null; errorCode: number };

/** Kafka's clients' metadata.max.age.ms default: five minutes. */
export const DEFAULT_METADATA_MAX_AGE_MS = 300_000;

export class ClusterMetadata {
  private readonly brokers = new Map<number, string>();
  private readonly topics = new Map<string, TopicLayout>();
  /** When the last answer came; 0 before any. */
  private refreshedAt = 0;

  constructor(
    private readonly bootstrapServers: readonly string[],
    private readonly pool: ConnectionPool,
    private readonly maxAgeMs = DEFAULT_METADATA_MAX_AGE_MS,
  ) {
    if (bootstrapServers.length === 0) throw new Error("no bootstrap servers given");
  }

  knows(topic: string): boolean {
    return this.topics.has(topic);
  }

  /** The topic's partition count in the last answer; undefined when it was not known then. */
  partitionCount(topic: string): number | undefined {
    const layout = this.topics.get(topic);
    return layout === undefined || layout.errorCode !== 0 ? undefined : layout.leaders.length;
  }

  route(topic: string, partition: number): Route {
    const layout = this.topics.get(topic);
    if (layout === undefined) return { address: null, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION };
    if (layout.errorCode !== 0) return { address: null, errorCode: layout.errorCode };
    const leader = layout.leaders[partition];
    if (leader === undefined) return { address: null, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION };
    const address = this.brokers.get(leader);
    return address === undefined ? { address: null, errorCode: ErrorCode.LEADER_NOT_AVAILABLE } : { address, errorCode: 0 };
  }

  /** The name of the topic with id `topicId` among the topics known; undefined when none has it. */
  topicName(topicId: string): string | undefined {
    for (const [name, layout] of this.topics) if (layout.topicId === topicId && layout.errorCode === 0) return name;
    return undefined;
  }

  /** The epoch of the partition's leader the metadata named; -1 when unknown (the broker then checks none). */
  leaderEpoch(topic: string, partition: number): number {
    return this.topics.get(topic)?.leaderEpochs[partition] ?? -1;
  }

  /**
   * `topics` with, once the last answer is older than the maximum age, every topic known: what to ask for before
   * routing them. Empty when all of them are known and the answer is recent enough.
   */
  toRefresh(topics: Iterable<string>): Set<string> {
    const wanted = new Set([...topics].filter((topic) => !this.topics.has(topic)));
    if (Date.now() - this.refreshedAt >= this.maxAgeMs) for (const topic of [...topics, ...this.topics.keys()]) wanted.add(topic);
    return wanted;
  }

  /**
   * Whether every partition of the topic has a leader whose address is known, in the last answer: the topic can be
   * written, read and asked about. False for a topic not known then.
   */
  isLed(topic: string): boolean {
    const layout = this.topics.get(topic);
    return layout !== undefined && layout.errorCode === 0 && layout.leaders.length > 0 && [...layout.leaders].every((leader) => this.brokers.has(leader));
  }

  /**
   * Asks for the layout of `topics` (every topic of the cluster when `all`), from a broker already connected to or
   * else the bootstrap servers in turn; answers the names of the topics the cluster knows among them.
   */
  async refresh(topics: Iterable<string> | "all"): Promise<string[]> {
    const names = topics === "all" ? null : [...new Set(topics)];
    if (names?.length === 0) return [];
    const answer = await this.askAnyBroker((connection) =>
      connection.request(METADATA, {
        topics: names && names.map((name) => ({ name })),
        allowAutoTopicCreation: false,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      }),
    );
    this.brokers.clear();
    for (const broker of answer.brokers) this.brokers.set(broker.nodeId, `${broker.host}:${broker.port}`);
    for (const topic of answer.topics) {
      const leaders: number[] = [];
      const leaderEpochs: number[] = [];
      for (const partition of topic.partitions) {
        leaders[partition.partitionIndex] = partition.leaderId;
        leaderEpochs[partition.partitionIndex] = partition.leaderEpoch;
      }
      this.topics.set(topic.name, { errorCode: topic.errorCode, leaders, leaderEpochs, topicId: topic.topicId });
    }
    this.refreshedAt = Date.now();
    return answer.topics.filter((topic) => topic.errorCode === 0).map((topic) => topic.name);
  }

  /**
   * `ask`'s answer from the first broker that gives one: those already connected to, then the bootstrap servers,
   * then the other brokers known. A lost or refused connection moves on to the next; other errors are thrown.
   */
  async askAnyBroker<T>(ask: (connection: BrokerConnection) => Promise<T>): Promise<T> {
    const candidates = [...new Set([...this.pool.openAddresses(), ...this.bootstrapServers, ...this.brokers.values()])];
    let lastError: unknown = new BrokerConnectionError(candidates.join(", "), "no broker reachable");
    for (const address of candidates) {
      try {
        return await ask(await this.pool.get(address));
      } catch (error) {
        if (!(error instanceof BrokerConnectionError)) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }
}
