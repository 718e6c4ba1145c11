/**
 * Reads given partitions from given offsets: one Fetch per partition leader, all in flight at once, each
 * partition's answer a FetchedBatch whose records are decoded as they are read. Also finds earliest offsets.
 * The group consumer fetches through it, and so does the changelog restore, which needs no group.
 */
import { codecsReady, ErrorCode, errorCodeName, FetchedRecords } from "../kafka-protocol";
import type { BrokerSecurity } from "./broker-connection";
import { FETCH, LIST_OFFSETS } from "./client-apis";
import { ClusterMetadata } from "./cluster-metadata";
import { ConnectionPool } from "./connection-pool";
import type { TopicPartitionOffset } from "./group-membership";
import { RETRIABLE_CODES } from "./retriable-error-codes";
import { PartitionUnavailableError } from "./kafka-client-errors";

const EARLIEST = -2n;

export interface FetchedBatch {
  topic: string;
  partition: number;
  /** The records fetched, in offset order, decoded as they are read (possibly none: control records only). */
  records: FetchedRecords;
  /** Where the partition's next fetch starts: past the last batch fetched. */
  nextOffset: number;
  /** The partition's high watermark when it was fetched. */
  highWatermark: number;
}

export interface PartitionError {
  topic: string;
  partition: number;
  errorCode: number;
}

/** One round of fetches: the partitions that had records, and those whose fetch failed. */
export interface FetchAnswer {
  batches: FetchedBatch[];
  errors: PartitionError[];
}

/** A round's failed partitions, sorted by what cures them. */
interface SortedFetchErrors {
  /** Positions before the log start or past its end, by topic: read again from the earliest offset. */
  outOfRange: Record<string, number[]>;
  /** Topics whose leader moved or is unknown: refresh the metadata and fetch again. */
  moved: Set<string>;
}

/** Sorts `errors`; any other error is thrown, its message starting with `doing` (e.g. "fetching"). */
function sortFetchErrors(errors: readonly PartitionError[], doing: string): SortedFetchErrors {
  const sorted: SortedFetchErrors = { outOfRange: {}, moved: new Set() };
  for (const { topic, partition, errorCode } of errors) {
    if (errorCode === ErrorCode.OFFSET_OUT_OF_RANGE) (sorted.outOfRange[topic] ??= []).push(partition);
    else if (RETRIABLE_CODES.has(errorCode)) sorted.moved.add(topic);
    else throw new Error(`${doing} topic ${topic} partition ${partition} failed: ${errorCodeName(errorCode)}`);
  }
  return sorted;
}

/** Where a cluster is and how to reach it (plain TCP without TLS settings, no SASL without credentials). */
export interface KafkaEndpoint extends BrokerSecurity {
  bootstrapServers: readonly string[];
}

export interface PartitionFetcherOptions extends BrokerSecurity {
  bootstrapServers: readonly string[];
  clientId: string;
  /** How long the broker may hold a fetch that has no data; default 500 ms. */
  maxWaitMs?: number;
  /** Bound on one fetch answer; default 10 MiB. */
  maxBytes?: number;
  /** Bound on one partition's share of a fetch answer; default 1 MiB. */
  maxPartitionBytes?: number;
}

export class PartitionFetcher {
  readonly pool: ConnectionPool;
  readonly metadata: ClusterMetadata;
  private readonly maxWaitMs: number;
  private readonly maxBytes: number;
  private readonly maxPartitionBytes: number;

  constructor(options: PartitionFetcherOptions) {
    this.maxWaitMs = options.maxWaitMs ?? 500;
    this.maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.maxPartitionBytes = options.maxPartitionBytes ?? 1024 * 1024;
    this.pool = new ConnectionPool({
      clientId: options.clientId,
      tls: options.tls,
      sasl: options.sasl,
      connectTimeoutMs: 10_000,
      requestTimeoutMs: 30_000 + this.maxWaitMs,
      maxResponseBytes: this.maxBytes + 1024 * 1024,
    });
    this.metadata = new ClusterMetadata(options.bootstrapServers, this.pool);
  }

  /** Each partition from its offset; a partition without a known leader is an error of the answer. */
  async fetch(positions: readonly TopicPartitionOffset[]): Promise<FetchAnswer> {
    await codecsReady(); // the records it answers with may be zstd batches, decoded as they are read
    const byLeader = new Map<string, TopicPartitionOffset[]>();
    const answer: FetchAnswer = { batches: [], errors: [] };
    for (const position of positions) {
      const route = this.metadata.route(position.topic, position.partition);
      if (route.address === null) answer.errors.push({ topic: position.topic, partition: position.partition, errorCode: route.errorCode });
      else {
        const list = byLeader.get(route.address) ?? [];
        list.push(position);
        byLeader.set(route.address, list);
      }
    }
    await Promise.all([...byLeader].map(([address, list]) => this.fetchFrom(address, list, answer)));
    return answer;
  }

  /**
   * Cures what a round's failed partitions allow: answers where each partition out of range restarts (its
   * earliest offset), and refreshes the metadata of topics whose leader moved, after `pause`. Any other error
   * is thrown, its message starting with `doing`.
   */
  async recover(errors: readonly PartitionError[], doing: string, pause: () => Promise<void>): Promise<TopicPartitionOffset[]> {
    const { outOfRange, moved } = sortFetchErrors(errors, doing);
    const restarts = await this.earliestOffsets(outOfRange);
    if (moved.size > 0) {
      await pause();
      await this.metadata.refresh(moved);
    }
    return restarts;
  }

  /** The earliest offset of each partition, from its leader. */
  async earliestOffsets(partitions: Record<string, number[]>): Promise<TopicPartitionOffset[]> {
    const byLeader = new Map<string, Map<string, number[]>>();
    for (const [topic, list] of Object.entries(partitions)) {
      for (const partition of list) {
        const route = this.metadata.route(topic, partition);
        if (route.address === null) throw new PartitionUnavailableError(topic, partition, route.errorCode, "no leader known for");
        const topics = byLeader.get(route.address) ?? new Map<string, number[]>();
        topics.set(topic, [...(topics.get(topic) ?? []), partition]);
        byLeader.set(route.address, topics);
      }
    }
    const found: TopicPartitionOffset[] = [];
    for (const [address, topics] of byLeader) {
      const answer = await (await this.pool.get(address)).request(LIST_OFFSETS, {
        replicaId: -1,
        isolationLevel: 0,
        topics: [...topics].map(([name, list]) => ({ name, partitions: list.map((partitionIndex) => ({ partitionIndex, timestamp: EARLIEST })) })),
      });
      for (const topic of answer.topics) {
        for (const partition of topic.partitions) {
          if (RETRIABLE_CODES.has(partition.errorCode)) throw new PartitionUnavailableError(topic.name, partition.partitionIndex, partition.errorCode, "earliest offset of");
          if (partition.errorCode !== 0) throw new Error(`earliest offset of topic ${topic.name} partition ${partition.partitionIndex}: ${errorCodeName(partition.errorCode)}`);
          found.push({ topic: topic.name, partition: partition.partitionIndex, offset: Number(partition.offset) });
        }
      }
    }
    return found;
  }

  close(): void {
    this.pool.close();
  }

  private async fetchFrom(address: string, positions: TopicPartitionOffset[], answer: FetchAnswer): Promise<void> {
    const topics = new Map<string, { partition: number; fetchOffset: bigint; partitionMaxBytes: number }[]>();
    const offsets = new Map<string, number>();
    for (const { topic, partition, offset } of positions) {
      const list = topics.get(topic) ?? [];
      list.push({ partition, fetchOffset: BigInt(offset), partitionMaxBytes: this.maxPartitionBytes });
      topics.set(topic, list);
      offsets.set(`${topic}\u0000${partition}`, offset);
    }
    const response = await (await this.pool.get(address)).request(FETCH, {
      replicaId: -1,
      maxWaitMs: this.maxWaitMs,
      minBytes: 1,
      maxBytes: this.maxBytes,
      isolationLevel: 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [...topics].map(([topic, partitions]) => ({ topic, partitions })),
      forgottenTopicsData: [],
      rackId: "",
    });
    if (response.errorCode !== 0) throw new Error(`fetch from broker ${address} failed: ${errorCodeName(response.errorCode)}`);
    for (const { topic, partitions } of response.responses) {
      for (const part of partitions) {
        if (part.errorCode !== 0) {
          answer.errors.push({ topic, partition: part.partitionIndex, errorCode: part.errorCode });
          continue;
        }
        if (part.records === null || part.records.length === 0) continue;
        const from = offsets.get(`${topic}\u0000${part.partitionIndex}`) ?? 0;
        const records = new FetchedRecords(part.records.toBuffer(), from, `topic ${topic} partition ${part.partitionIndex}`);
        if (records.nextOffset < 0) continue;
        answer.batches.push({ topic, partition: part.partitionIndex, records, nextOffset: records.nextOffset, highWatermark: Number(part.highWatermark) });
      }
    }
  }
}
