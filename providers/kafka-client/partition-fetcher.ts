/**
 * Reads given partitions from given offsets: one Fetch per partition leader, each partition's answer a FetchedBatch
 * whose records are decoded as they are read. Also finds earliest offsets. The group consumer fetches through it,
 * and so do the changelog restore and the dead-letter reader, which need no group.
 *
 * The leaders are fetched from independently, as Kafka's consumers do: a round answers with what the leaders that
 * answered first gave, and a fetch still in flight to a slow or dead leader stays in flight for the rounds after
 * (its answer kept while its partitions are asked at the same offsets). A leader whose connection fails fails its
 * own partitions only; those, and partitions whose leader moved, are held back for a backoff (retry.backoff.ms
 * doubled up to retry.backoff.max.ms) while the metadata is asked again, then fetched again from the same offsets.
 *
 * read_committed (isolation.level, KIP-98): the broker answers with records below each partition's last stable
 * offset only, and lists the aborted transactions among them, whose records the answer skips, as it skips the
 * transactions' markers; a position never moves past the last stable offset.
 */
import { codecsReady, ErrorCode, errorCodeName, FetchedRecords } from "../kafka-protocol";
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import { backoffMs } from "./backoff";
import { FETCH } from "./client-apis";
import { ClusterMetadata } from "./cluster-metadata";
import { ConnectionPool } from "./connection-pool";
import type { KafkaEndpoint } from "./kafka-endpoint";
import type { TopicPartitionOffset } from "./group-membership";
import { EARLIEST, LATEST, offsetsAt } from "./partition-leaders";
import { RETRIABLE_CODES } from "./retriable-error-codes";
import { BrokerConnectionError, PartitionUnavailableError } from "./kafka-client-errors";

export interface FetchedBatch {
  topic: string;
  partition: number;
  /** The records fetched, in offset order, decoded as they are read (possibly none: control records only). */
  records: FetchedRecords;
  /** Where the partition's next fetch starts: past the last batch fetched. */
  nextOffset: number;
  /** The partition's high watermark when it was fetched. */
  highWatermark: number;
  /** Its last stable offset then: where a read_committed reader's records end while a transaction is open. */
  lastStableOffset: number;
}

export interface PartitionError {
  topic: string;
  partition: number;
  errorCode: number;
  /** What went wrong beyond the code: the lost connection's cause. */
  detail?: string;
}

/** How far a partition's end was past the records fetched (Kafka's consumer's currentLag), as a fetch answered. */
export interface PartitionLag {
  topic: string;
  partition: number;
  /** Records on the broker after the fetched ones: to the high watermark, or read_committed the last stable offset. */
  lag: number;
}

/** One round of fetches: the partitions that had records, those whose fetch failed, and the lag of every partition answered. */
export interface FetchAnswer {
  batches: FetchedBatch[];
  errors: PartitionError[];
  lags: PartitionLag[];
}

/** A round's failed partitions, sorted by what cures them. */
interface SortedFetchErrors {
  /** Positions before the log start or past its end, by topic: read again from the earliest offset. */
  outOfRange: Record<string, number[]>;
  /** Partitions whose leader moved, is unknown or unreachable: refresh the metadata and fetch again. */
  moved: PartitionError[];
  /**
   * Partitions the broker failed to read for a reason it did not name (UNKNOWN_SERVER_ERROR): fetched again after a
   * backoff, as Kafka's consumer does, which logs them and goes on.
   */
  failed: PartitionError[];
}

/** Sorts `errors`; any other error is thrown, its message starting with `doing` (e.g. "fetching"). */
function sortFetchErrors(errors: readonly PartitionError[], doing: string): SortedFetchErrors {
  const sorted: SortedFetchErrors = { outOfRange: {}, moved: [], failed: [] };
  for (const error of errors) {
    const { topic, partition, errorCode } = error;
    if (errorCode === ErrorCode.OFFSET_OUT_OF_RANGE) (sorted.outOfRange[topic] ??= []).push(partition);
    else if (RETRIABLE_CODES.has(errorCode)) sorted.moved.push(error);
    else if (errorCode === ErrorCode.UNKNOWN_SERVER_ERROR) sorted.failed.push(error);
    else throw new Error(`${doing} topic ${topic} partition ${partition} failed: ${errorCodeName(errorCode)}`);
  }
  return sorted;
}

export interface PartitionFetcherOptions extends KafkaEndpoint {
  clientId: string;
  /** How long the broker may hold a fetch that has no data; default 500 ms. */
  maxWaitMs?: number;
  /** Bound on one fetch answer; default 10 MiB. */
  maxBytes?: number;
  /** Bound on one partition's share of a fetch answer; default 1 MiB. */
  maxPartitionBytes?: number;
  /** read_committed: only records of committed transactions (and of no transaction); default read_uncommitted, as Kafka's. */
  isolationLevel?: IsolationLevel;
  logger?: ComponentLogger;
}

export type IsolationLevel = "read_uncommitted" | "read_committed";

/** The isolation levels' ids in Fetch and ListOffsets. */
const ISOLATION_LEVEL_IDS: Record<IsolationLevel, number> = { read_uncommitted: 0, read_committed: 1 };

/** A Fetch sent to one leader: the offsets it asked, and once it is over, what it brought. */
interface LeaderFetch {
  readonly asked: ReadonlyMap<string, number>;
  readonly over: Promise<void>;
  answer?: FetchAnswer;
  /** A failure other than a lost connection: thrown by the round that collects it. */
  failure?: unknown;
}

/** A partition held back after a failure: until when, and after how many failures in a row. */
interface HeldBack {
  until: number;
  failures: number;
}

const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export class PartitionFetcher {
  readonly metadata: ClusterMetadata;
  private readonly maxWaitMs: number;
  private readonly maxBytes: number;
  private readonly maxPartitionBytes: number;
  private readonly isolationLevel: number;
  private readonly retryBackoffMs: number;
  private readonly retryBackoffMaxMs: number;
  private readonly logger: ComponentLogger;
  /** Fetches not yet collected by a round, by leader address. */
  private readonly inFlight = new Map<string, LeaderFetch>();
  private readonly heldBack = new Map<string, HeldBack>();

  /** `pool`: the connections to use; by default its own. */
  constructor(
    options: PartitionFetcherOptions,
    readonly pool = new ConnectionPool({
      clientId: options.clientId,
      tls: options.tls,
      sasl: options.sasl,
      connectTimeoutMs: 10_000,
      requestTimeoutMs: 30_000 + (options.maxWaitMs ?? 500),
      maxResponseBytes: (options.maxBytes ?? 10 * 1024 * 1024) + 1024 * 1024,
    }),
  ) {
    this.maxWaitMs = options.maxWaitMs ?? 500;
    this.maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.maxPartitionBytes = options.maxPartitionBytes ?? 1024 * 1024;
    this.isolationLevel = ISOLATION_LEVEL_IDS[options.isolationLevel ?? "read_uncommitted"];
    this.retryBackoffMs = options.retryBackoffMs ?? 100;
    this.retryBackoffMaxMs = options.retryBackoffMaxMs ?? 1_000;
    this.logger = options.logger ?? silentLogger;
    this.metadata = new ClusterMetadata(options.bootstrapServers, this.pool, options.metadataMaxAgeMs);
  }

  /**
   * One round: sends a Fetch to each leader of `positions` that has none in flight, then answers once at least one
   * of them is over, with every answer in by then. A partition without a known leader, or whose leader's connection
   * failed, is an error of the answer; a partition held back after an error is left out until its backoff ends.
   */
  async fetch(positions: readonly TopicPartitionOffset[]): Promise<FetchAnswer> {
    await codecsReady(); // the records it answers with may be zstd batches, decoded as they are read
    const answer: FetchAnswer = { batches: [], errors: [], lags: [] };
    if (positions.length === 0) return answer;
    for (;;) {
      await this.refreshMetadata(this.metadata.toRefresh(positions.map(({ topic }) => topic)));
      const byLeader = this.routeReady(positions, answer);
      this.dropUnwanted(byLeader);
      for (const [address, list] of byLeader) if (!this.inFlight.has(address)) this.inFlight.set(address, this.fetchFrom(address, list));
      if (answer.errors.length > 0 && !this.anyOver()) return answer;
      if (this.inFlight.size > 0) {
        await Promise.race([...this.inFlight.values()].map(({ over }) => over));
        this.collect(answer);
        return answer;
      }
      await this.untilFirstReleased(positions);
    }
  }

  /**
   * Cures what a round's failed partitions allow: answers where each partition out of range restarts (its
   * earliest offset), holds back the others and refreshes their metadata. Any error no retry cures is thrown, its
   * message starting with `doing`.
   */
  async recover(errors: readonly PartitionError[], doing: string): Promise<TopicPartitionOffset[]> {
    const { outOfRange, moved, failed } = sortFetchErrors(errors, doing);
    for (const error of moved) this.holdBack(error, doing);
    for (const error of failed) this.holdBack(error, doing, "the broker could not read it; retrying from the same offset");
    if (moved.length > 0) await this.refreshMetadata(new Set(moved.map(({ topic }) => topic)));
    try {
      return await this.earliestOffsets(outOfRange);
    } catch (error) {
      if (!(error instanceof BrokerConnectionError) && !(error instanceof PartitionUnavailableError)) throw error;
      const errorCode = error instanceof PartitionUnavailableError ? error.errorCode : ErrorCode.NETWORK_EXCEPTION;
      for (const [topic, list] of Object.entries(outOfRange)) for (const partition of list) this.holdBack({ topic, partition, errorCode, detail: error.message }, doing);
      return [];
    }
  }

  /** The earliest offset of each partition, from its leader. */
  earliestOffsets(partitions: Record<string, number[]>): Promise<TopicPartitionOffset[]> {
    return offsetsAt(this.metadata, this.pool, partitions, EARLIEST, this.isolationLevel);
  }

  /**
   * The end of each partition as this fetcher reads it, from its leader (Kafka's consumer's endOffsets): the high
   * watermark, or read_committed the last stable offset.
   */
  latestOffsets(partitions: Record<string, number[]>): Promise<TopicPartitionOffset[]> {
    return offsetsAt(this.metadata, this.pool, partitions, LATEST, this.isolationLevel);
  }

  close(): void {
    this.pool.close();
  }

  /** The positions not held back, by leader; those without a known leader become errors of `answer`. */
  private routeReady(positions: readonly TopicPartitionOffset[], answer: FetchAnswer): Map<string, TopicPartitionOffset[]> {
    const now = Date.now();
    const byLeader = new Map<string, TopicPartitionOffset[]>();
    for (const position of positions) {
      if ((this.heldBack.get(key(position.topic, position.partition))?.until ?? 0) > now) continue;
      const route = this.metadata.route(position.topic, position.partition);
      if (route.address === null) answer.errors.push({ topic: position.topic, partition: position.partition, errorCode: route.errorCode });
      else {
        const list = byLeader.get(route.address) ?? [];
        list.push(position);
        byLeader.set(route.address, list);
      }
    }
    return byLeader;
  }

  /**
   * Forgets fetches in flight that this round would not ask again as they are (a leader no longer asked, or a
   * partition of it at another offset): their answers are dropped when they come.
   */
  private dropUnwanted(byLeader: Map<string, TopicPartitionOffset[]>): void {
    for (const [address, fetch] of this.inFlight) {
      const wanted = new Map((byLeader.get(address) ?? []).map(({ topic, partition, offset }) => [key(topic, partition), offset]));
      const stillWanted = [...fetch.asked].every(([partition, offset]) => wanted.get(partition) === offset);
      if (!stillWanted) this.inFlight.delete(address);
    }
  }

  private anyOver(): boolean {
    return [...this.inFlight.values()].some((fetch) => fetch.answer !== undefined || fetch.failure !== undefined);
  }

  /** Moves the answers of the fetches that are over into `answer`; throws the first failure among them. */
  private collect(answer: FetchAnswer): void {
    let failure: unknown;
    for (const [address, fetch] of this.inFlight) {
      if (fetch.answer === undefined && fetch.failure === undefined) continue;
      this.inFlight.delete(address);
      failure ??= fetch.failure;
      if (fetch.answer === undefined) continue;
      answer.batches.push(...fetch.answer.batches);
      answer.errors.push(...fetch.answer.errors);
      answer.lags.push(...fetch.answer.lags);
      const failed = new Set(fetch.answer.errors.map((error) => key(error.topic, error.partition)));
      for (const partition of fetch.asked.keys()) if (!failed.has(partition)) this.heldBack.delete(partition);
    }
    if (failure !== undefined) throw failure;
  }

  /** Waits until the first of `positions` held back may be fetched again. */
  private async untilFirstReleased(positions: readonly TopicPartitionOffset[]): Promise<void> {
    const until = Math.min(...positions.map(({ topic, partition }) => this.heldBack.get(key(topic, partition))?.until ?? 0));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())));
  }

  private holdBack(error: PartitionError, doing: string, what = "asking the metadata again and retrying from the same offset"): void {
    const partition = key(error.topic, error.partition);
    const failures = (this.heldBack.get(partition)?.failures ?? 0) + 1;
    const pauseMs = backoffMs(this.retryBackoffMs, failures, this.retryBackoffMaxMs);
    this.heldBack.set(partition, { until: Date.now() + pauseMs, failures });
    // The first failure of a run says what happened; the retries that follow it are not news.
    const log = failures === 1 ? this.logger.warn.bind(this.logger) : this.logger.debug.bind(this.logger);
    log(`${doing} a partition failed; ${what}`, {
      topic: error.topic,
      partition: error.partition,
      error: error.detail ?? errorCodeName(error.errorCode),
      failures,
      backoffMs: pauseMs,
    });
  }

  /** A refresh that fails for want of a broker leaves the old layout: the partitions it concerns fail and are retried. */
  private async refreshMetadata(topics: Set<string>): Promise<void> {
    if (topics.size === 0) return;
    try {
      await this.metadata.refresh(topics);
    } catch (error) {
      if (!(error instanceof BrokerConnectionError)) throw error;
      this.logger.debug("metadata refresh failed", { error: error.message });
    }
  }

  private fetchFrom(address: string, positions: TopicPartitionOffset[]): LeaderFetch {
    const asked = new Map(positions.map(({ topic, partition, offset }) => [key(topic, partition), offset]));
    const fetch: { -readonly [K in keyof LeaderFetch]: LeaderFetch[K] } = { asked, over: Promise.resolve() };
    fetch.over = this.requestFetch(address, positions).then(
      (answer) => void (fetch.answer = answer),
      (error: unknown) => {
        if (!(error instanceof BrokerConnectionError)) fetch.failure = error;
        else fetch.answer = { batches: [], errors: positions.map(({ topic, partition }) => ({ topic, partition, errorCode: ErrorCode.NETWORK_EXCEPTION, detail: error.message })), lags: [] };
      },
    );
    return fetch;
  }

  private async requestFetch(address: string, positions: TopicPartitionOffset[]): Promise<FetchAnswer> {
    const topics = new Map<string, { partition: number; currentLeaderEpoch: number; fetchOffset: bigint; partitionMaxBytes: number }[]>();
    const offsets = new Map<string, number>();
    for (const { topic, partition, offset } of positions) {
      const list = topics.get(topic) ?? [];
      list.push({ partition, currentLeaderEpoch: this.metadata.leaderEpoch(topic, partition), fetchOffset: BigInt(offset), partitionMaxBytes: this.maxPartitionBytes });
      topics.set(topic, list);
      offsets.set(key(topic, partition), offset);
    }
    const response = await (await this.pool.get(address)).request(FETCH, {
      replicaId: -1,
      maxWaitMs: this.maxWaitMs,
      minBytes: 1,
      maxBytes: this.maxBytes,
      isolationLevel: this.isolationLevel,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [...topics].map(([topic, partitions]) => ({ topic, partitions })),
      forgottenTopicsData: [],
      rackId: "",
    });
    if (response.errorCode !== 0) throw new Error(`fetch from broker ${address} failed: ${errorCodeName(response.errorCode)}`);
    const answer: FetchAnswer = { batches: [], errors: [], lags: [] };
    const readingCommitted = this.isolationLevel === ISOLATION_LEVEL_IDS.read_committed;
    for (const { topic, partitions } of response.responses) {
      for (const part of partitions) {
        if (part.errorCode !== 0) {
          answer.errors.push({ topic, partition: part.partitionIndex, errorCode: part.errorCode });
          continue;
        }
        const from = offsets.get(key(topic, part.partitionIndex)) ?? 0;
        const lastStableOffset = Number(part.lastStableOffset);
        const end = readingCommitted ? lastStableOffset : Number(part.highWatermark);
        const records = part.records === null || part.records.length === 0 ? undefined : new FetchedRecords(part.records.toBuffer(), from, `topic ${topic} partition ${part.partitionIndex}`, readingCommitted ? { lastStableOffset, abortedTransactions: part.abortedTransactions ?? [] } : undefined);
        const next = records === undefined || records.nextOffset < 0 ? from : records.nextOffset;
        answer.lags.push({ topic, partition: part.partitionIndex, lag: Math.max(0, end - next) });
        if (records === undefined || records.nextOffset < 0) continue;
        answer.batches.push({ topic, partition: part.partitionIndex, records, nextOffset: records.nextOffset, highWatermark: Number(part.highWatermark), lastStableOffset });
      }
    }
    return answer;
  }
}
