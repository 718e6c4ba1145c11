/**
 * What a client knows of the cluster: its brokers' addresses and the leader of each partition of the
 * topics it writes to, learnt with Metadata requests (never creating topics) and refreshed on demand.
 */
import { ErrorCode } from "../kafka-protocol";
import { METADATA } from "./client-apis";
import type { ConnectionPool } from "./connection-pool";
import { BrokerConnectionError } from "./kafka-client-errors";

interface TopicLayout {
  /** The topic's error in the last answer; 0 when it is known. */
  errorCode: number;
  /** Leader node id per partition index; -1 without a leader. */
  leaders: number[];
}

/** Where a partition's records go: its leader's address, or the error code that stands in the way. */
export type Route = { address: string; errorCode: 0 } | { address: null; errorCode: number };

export class ClusterMetadata {
  private readonly brokers = new Map<number, string>();
  private readonly topics = new Map<string, TopicLayout>();

  constructor(
    private readonly bootstrapServers: readonly string[],
    private readonly pool: ConnectionPool,
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

  /** Asks for the layout of `topics`, from a broker already connected to or else the bootstrap servers in turn. */
  async refresh(topics: Iterable<string>): Promise<void> {
    const names = [...new Set(topics)];
    if (names.length === 0) return;
    const candidates = [...new Set([...this.pool.openAddresses(), ...this.bootstrapServers, ...this.brokers.values()])];
    let lastError: unknown = new BrokerConnectionError(candidates.join(", "), "no broker reachable");
    for (const address of candidates) {
      try {
        const connection = await this.pool.get(address);
        const answer = await connection.request(METADATA, {
          topics: names.map((name) => ({ name })),
          allowAutoTopicCreation: false,
          includeClusterAuthorizedOperations: false,
          includeTopicAuthorizedOperations: false,
        });
        this.brokers.clear();
        for (const broker of answer.brokers) this.brokers.set(broker.nodeId, `${broker.host}:${broker.port}`);
        for (const topic of answer.topics) {
          const leaders: number[] = [];
          for (const partition of topic.partitions) leaders[partition.partitionIndex] = partition.leaderId;
          this.topics.set(topic.name, { errorCode: topic.errorCode, leaders });
        }
        return;
      } catch (error) {
        if (!(error instanceof BrokerConnectionError)) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }
}
