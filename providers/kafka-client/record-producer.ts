/**
 * A producer for records whose partitions are already chosen: each call encodes every partition's records into
 * batches (or takes them written already, and finishes them: codec, header, stamp), sends one Produce request (acks = all) per leader broker — more when a partition's records exceed a
 * batch or a request exceeds its bound — and resolves with where each partition's records landed.
 *
 * A partition's records keep their order: its batches go out in rounds (a request holds at most one batch per
 * partition, as the protocol requires), and a round starts only once the previous one is acknowledged; sends are
 * delivered one after another in the order they were made. Within a round every request is in flight at once.
 * Partitions that fail with a retriable error or a lost connection are retried alone, after a metadata refresh and a
 * backoff (retry.backoff.ms doubled up to retry.backoff.max.ms), until delivery.timeout.ms after their first attempt.
 *
 * Idempotent (the default, as Kafka's clients since 3.0): the producer gets a producer id and epoch (InitProducerId)
 * and every batch carries them with its partition's sequence number, so a batch retried after a lost connection or
 * an unanswered request is stored once — the broker answers a retry of a batch it already has with that batch's
 * offset. One batch per partition is in flight at a time, well within the five Kafka allows an idempotent producer.
 * A broker that has forgotten the producer (UNKNOWN_PRODUCER_ID: its batches deleted) gets the unacknowledged batches
 * again under a new producer id; a gap in the sequence (OUT_OF_ORDER_SEQUENCE_NUMBER: the cluster lost batches it had
 * acknowledged) or a fenced epoch fails the send. After any failed send the next one starts under a new producer id.
 *
 * Transactional (`transactional`, set by TransactionalProducer): the batches carry the transaction coordinator's
 * producer id and epoch, flagged transactional, and the requests the transactional id; a broker that lost the
 * producer fails the send (its transaction must be aborted) instead of a new producer id being taken.
 */
import {
  ChunkedBytes,
  codecId,
  codecsReady,
  type CompressionType,
  DEFAULT_MAX_BATCH_BYTES,
  type EncodedBatch,
  ErrorCode,
  errorCodeName,
  incrementSequence,
  finishBatches,
  NO_PRODUCER,
  openRecordBatches,
  type OpenRecordBatch,
  recordCount,
  type ProducerRecord,
  type ProducerStamp,
  stampProducer,
} from "../kafka-protocol";
import { INIT_PRODUCER_ID, PRODUCE } from "./client-apis";
import { backoffMs } from "./backoff";
import { ClusterMetadata, DEFAULT_METADATA_MAX_AGE_MS } from "./cluster-metadata";
import { ConnectionPool } from "./connection-pool";
import type { KafkaEndpoint } from "./kafka-endpoint";
import { BrokerConnectionError, ProduceError, ProducerIdError } from "./kafka-client-errors";
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import { RETRIABLE_CODES } from "./retriable-error-codes";

export interface PartitionRecords {
  topic: string;
  partition: number;
  records: readonly ProducerRecord[];
}

/** A partition's records written already (RecordBatchAppender), in batches of at most the producer's maxBatchBytes. */
export interface PartitionBatches {
  topic: string;
  partition: number;
  batches: readonly OpenRecordBatch[];
}

/** Where a partition's records landed: `baseOffset` … `lastOffset`; both -1 when it was given none. */
export interface PartitionOffsets {
  topic: string;
  partition: number;
  baseOffset: number;
  /** The last record's offset (contiguous with baseOffset unless another producer wrote between two batches). */
  lastOffset: number;
  /** The producer id of the partition's last batch (-1 without idempotence): a send's batches may change id midway (restartSequences). */
  producerId: bigint;
}

/** A transactional producer's writes: under the producer id and epoch its transaction coordinator gave. */
export interface TransactionalWrites {
  readonly transactionalId: string;
  /** The producer id and epoch to write under now. */
  identity(): ProducerIdentity;
}

export interface RecordProducerOptions extends KafkaEndpoint {
  clientId: string;
  logger?: ComponentLogger;
  /** Producer id, epoch and sequence numbers in every batch, so that no retry is stored twice; default true. */
  idempotence?: boolean;
  /** Largest record batch, header included (before compression); default 1,000,000 bytes. */
  maxBatchBytes?: number;
  /** Codec of the batches written; default none. */
  compression?: CompressionType;
  /** Bound on the batches of one request; default 16 MiB. */
  maxRequestBytes?: number;
  /** How long the leader may wait for its replicas to acknowledge (the request's timeoutMs); default 30 s. */
  ackTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** An unanswered request ends its connection after this long; default 40 s. */
  requestTimeoutMs?: number;
  /** No retry starts later than this after its batch's first attempt (it fails its send instead); default 120 s. */
  deliveryTimeoutMs?: number;
  /** Writes within transactions (implies idempotence). */
  transactional?: TransactionalWrites;
}

const MAX_RESPONSE_BYTES = 100 * 1024 * 1024;
/** A partition's share of a request beyond its batch: topic name, index, sizes (generous). */
const PARTITION_OVERHEAD_BYTES = 32;
/** What Kafka's idempotent producer sends as its transaction timeout (it has no transaction). */
const NO_TRANSACTION_TIMEOUT_MS = 2_147_483_647;
/** InitProducerId errors that asking again (another broker, or later) may cure. */
const RETRIABLE_INIT_CODES: ReadonlySet<number> = new Set([
  ...RETRIABLE_CODES,
  ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
  ErrorCode.COORDINATOR_NOT_AVAILABLE,
  ErrorCode.NOT_COORDINATOR,
]);

/** The idempotent producer's identity, from InitProducerId. */
export interface ProducerIdentity {
  producerId: bigint;
  producerEpoch: number;
}

/** One partition of one send: its batches, how many are acknowledged, and the offsets learnt so far. */
interface Delivery {
  readonly topic: string;
  readonly partition: number;
  readonly batches: EncodedBatch[];
  /** The next batch to deliver is batches[acknowledged]. */
  acknowledged: number;
  baseOffset: number;
  lastOffset: number;
  /** The producer id its unacknowledged batches carry. */
  producerId: bigint;
}

interface Failure {
  delivery: Delivery;
  /** null for a lost or refused connection. */
  errorCode: number | null;
  detail: string;
}

/** What one attempt at a round ended with: partitions to retry, and errors that end the send. */
interface AttemptOutcome {
  retriable: Failure[];
  fatal: Error[];
  /** A broker answered UNKNOWN_PRODUCER_ID: the batches not yet acknowledged go again under a new producer id. */
  producerLost: boolean;
}

type Settings = Required<Omit<RecordProducerOptions, "logger" | "bootstrapServers" | "clientId" | "compression" | "tls" | "sasl" | "transactional">>;

const partitionKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export class RecordProducer {
  /** Its connections and what it knows of the cluster, which a transactional producer's coordinator requests share. */
  readonly pool: ConnectionPool;
  readonly metadata: ClusterMetadata;
  private readonly logger: ComponentLogger;
  /** The last send made: each send is delivered once the one before it has settled. */
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Retry pauses under way: close() ends them, so that no retry outlives the producer. */
  private readonly pauses = new Set<() => void>();
  private readonly settings: Settings;
  private readonly codec: number;
  /** The producer id and epoch of the idempotent writes, once asked for; dropped after a failed send. */
  private identity?: Promise<ProducerIdentity>;
  /** The next sequence number per partition, under the current identity. */
  private readonly sequences = new Map<string, number>();

  constructor(private readonly options: RecordProducerOptions) {
    this.settings = {
      idempotence: options.transactional !== undefined || (options.idempotence ?? true),
      maxBatchBytes: options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES,
      maxRequestBytes: options.maxRequestBytes ?? 16 * 1024 * 1024,
      ackTimeoutMs: options.ackTimeoutMs ?? 30_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 40_000,
      retryBackoffMs: options.retryBackoffMs ?? 100,
      retryBackoffMaxMs: options.retryBackoffMaxMs ?? 1_000,
      deliveryTimeoutMs: options.deliveryTimeoutMs ?? 120_000,
      metadataMaxAgeMs: options.metadataMaxAgeMs ?? DEFAULT_METADATA_MAX_AGE_MS,
    };
    this.codec = codecId(options.compression ?? "none");
    this.logger = options.logger ?? silentLogger;
    this.pool = new ConnectionPool({
      clientId: options.clientId,
      tls: options.tls,
      sasl: options.sasl,
      connectTimeoutMs: this.settings.connectTimeoutMs,
      requestTimeoutMs: this.settings.requestTimeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
    this.metadata = new ClusterMetadata(options.bootstrapServers, this.pool, this.settings.metadataMaxAgeMs);
  }

  /**
   * Reaches a bootstrap broker, or rejects naming the last one tried; an idempotent producer also gets its producer
   * id, or rejects with a ProducerIdError (a cluster that refuses idempotent writes says so here).
   */
  async connect(): Promise<void> {
    this.assertOpen();
    await codecsReady();
    let lastError: unknown;
    for (const address of this.options.bootstrapServers) {
      try {
        await this.pool.get(address);
        lastError = undefined;
        break;
      } catch (error) {
        lastError = error;
      }
    }
    if (lastError !== undefined) throw lastError;
    if (this.settings.idempotence) await this.producerIdentity();
  }

  /**
   * Writes each partition's records, in order, and resolves with their offsets, in the order given. Each
   * topic-partition may appear once. Rejects with a ProduceError naming the first partition that failed.
   */
  send(partitions: readonly (PartitionRecords | PartitionBatches)[]): Promise<PartitionOffsets[]> {
    if (this.closed) return Promise.reject(new Error(`producer ${this.options.clientId} is closed`));
    const deliver = () => this.deliver(partitions);
    const sending = this.tail.then(deliver, deliver);
    this.tail = sending.catch(() => undefined);
    return sending;
  }

  /**
   * Lets the sends in progress finish their current attempt, then closes every connection. A send waiting to retry
   * rejects at once instead (its records were not acknowledged); later sends reject.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.pauses) wake();
    await this.tail;
    this.pool.close();
  }

  /** Waits `ms` before a retry, or less when the producer closes; then throws if it did. */
  private async pauseBeforeRetry(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.pauses.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.pauses.add(wake);
    });
    this.assertOpen();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`producer ${this.options.clientId} is closed`);
  }

  private async deliver(partitions: readonly (PartitionRecords | PartitionBatches)[]): Promise<PartitionOffsets[]> {
    assertDistinct(partitions);
    try {
      const stale = this.metadata.toRefresh(partitions.map(({ topic }) => topic));
      if (stale.size > 0) await this.refreshMetadata(stale);
      const identity = this.settings.idempotence ? await this.producerIdentity() : null;
      const deliveries: Delivery[] = partitions.map((given) => {
        const { topic, partition } = given;
        const open = "records" in given ? openRecordBatches(given.records, this.settings.maxBatchBytes) : given.batches;
        const stamp = identity === null ? NO_PRODUCER : this.nextStamp(identity, topic, partition, recordCount(open));
        return { topic, partition, batches: finishBatches(open, this.codec, stamp), acknowledged: 0, baseOffset: -1, lastOffset: -1, producerId: stamp.producerId };
      });
      for (;;) {
        const round = deliveries.filter((delivery) => delivery.acknowledged < delivery.batches.length);
        if (round.length === 0) break;
        await this.deliverRound(round, deliveries);
      }
      return deliveries.map(({ topic, partition, baseOffset, lastOffset, producerId }) => ({ topic, partition, baseOffset, lastOffset, producerId }));
    } catch (error) {
      // Sequences were taken for batches that may not have been written: the next send starts afresh.
      this.forgetIdentity();
      throw error;
    }
  }

  /** Delivers the next batch of each of `round`, retrying the partitions that fail with a retriable error. */
  private async deliverRound(round: Delivery[], all: Delivery[]): Promise<void> {
    const started = Date.now();
    const deadline = started + this.settings.deliveryTimeoutMs;
    let pending = round;
    for (let attempt = 1; ; attempt++) {
      const { retriable, fatal, producerLost } = await this.attempt(pending);
      if (fatal.length > 0) throw fatal[0];
      if (retriable.length === 0) return;
      const backoff = backoffMs(this.settings.retryBackoffMs, attempt, this.settings.retryBackoffMaxMs);
      if (Date.now() + backoff > deadline) {
        const { delivery, errorCode, detail } = retriable[0];
        const given = `still failing after ${attempt} attempts in ${Date.now() - started} ms (delivery timeout ${this.settings.deliveryTimeoutMs} ms)`;
        throw new ProduceError(delivery.topic, delivery.partition, errorCode, `${detail ? `${detail}, ` : ""}${given}`);
      }
      this.logger.warn("produce retry", {
        attempt,
        backoffMs: backoff,
        partitions: retriable.map(({ delivery, errorCode, detail }) => `${delivery.topic}-${delivery.partition}: ${errorCode === null ? detail : errorCodeName(errorCode)}`),
      });
      await this.pauseBeforeRetry(backoff);
      await this.refreshMetadata(new Set(retriable.map(({ delivery }) => delivery.topic)));
      if (producerLost) await this.restartSequences(all);
      pending = retriable.map(({ delivery }) => delivery);
    }
  }

  /** A refresh that fails for want of a broker leaves the old layout; the attempt that follows reports the failure. */
  private async refreshMetadata(topics: Set<string>): Promise<void> {
    try {
      await this.metadata.refresh(topics);
    } catch (error) {
      if (!(error instanceof BrokerConnectionError)) throw error;
      this.logger.warn("metadata refresh failed", { error: error.message });
    }
  }

  /**
   * Forgets the sequence numbers: a transactional producer's new epoch starts them from 0 again in every partition.
   * Call between sends only.
   */
  resetSequences(): void {
    this.sequences.clear();
  }

  /** The idempotent writes' producer id and epoch, asked for once and kept until a send fails. */
  private producerIdentity(): Promise<ProducerIdentity> {
    if (this.options.transactional !== undefined) return Promise.resolve(this.options.transactional.identity());
    if (this.identity === undefined) {
      const asking = this.requestIdentity();
      this.identity = asking;
      asking.catch(() => {
        if (this.identity === asking) this.identity = undefined;
      });
    }
    return this.identity;
  }

  private forgetIdentity(): void {
    this.identity = undefined;
    this.sequences.clear();
  }

  /** InitProducerId of any broker, retried on lost connections and retriable errors within the delivery timeout. */
  private async requestIdentity(): Promise<ProducerIdentity> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let errorCode: number | null = null;
      let detail = "";
      try {
        const answer = await this.metadata.askAnyBroker((connection) =>
          connection.request(INIT_PRODUCER_ID, { transactionalId: null, transactionTimeoutMs: NO_TRANSACTION_TIMEOUT_MS }),
        );
        if (answer.errorCode === ErrorCode.NONE) return { producerId: answer.producerId, producerEpoch: answer.producerEpoch };
        errorCode = answer.errorCode;
        if (!RETRIABLE_INIT_CODES.has(errorCode)) {
          const hint = errorCode === ErrorCode.CLUSTER_AUTHORIZATION_FAILED ? "idempotent writes need the IdempotentWrite permission on clusters older than Kafka 2.8; or turn idempotence off" : "";
          throw new ProducerIdError(this.options.clientId, errorCode, hint);
        }
      } catch (error) {
        if (!(error instanceof BrokerConnectionError)) throw error;
        detail = error.message;
      }
      const backoff = backoffMs(this.settings.retryBackoffMs, attempt, this.settings.retryBackoffMaxMs);
      if (Date.now() + backoff > started + this.settings.deliveryTimeoutMs) {
        throw new ProducerIdError(this.options.clientId, errorCode, `${detail ? `${detail}, ` : ""}still failing after ${attempt} attempts`);
      }
      this.logger.warn("producer id request retry", { attempt, backoffMs: backoff, error: errorCode === null ? detail : errorCodeName(errorCode) });
      await this.pauseBeforeRetry(backoff);
    }
  }

  /** The stamp of `count` records for a partition: its next sequence under `identity`, which moves past them. */
  private nextStamp(identity: ProducerIdentity, topic: string, partition: number, count: number): ProducerStamp {
    const key = partitionKey(topic, partition);
    const baseSequence = this.sequences.get(key) ?? 0;
    this.sequences.set(key, incrementSequence(baseSequence, count));
    return { ...identity, baseSequence, transactional: this.options.transactional !== undefined };
  }

  /** A new producer id, and every batch of the send not yet acknowledged stamped with it, each partition from 0. */
  private async restartSequences(all: Delivery[]): Promise<void> {
    this.forgetIdentity();
    const identity = await this.producerIdentity();
    this.logger.warn("the broker lost this producer's state; unacknowledged batches go again under a new producer id", { producerId: String(identity.producerId) });
    for (const delivery of all) {
      if (delivery.acknowledged === delivery.batches.length) continue;
      delivery.producerId = identity.producerId;
      for (const batch of delivery.batches.slice(delivery.acknowledged)) stampProducer(batch.bytes, this.nextStamp(identity, delivery.topic, delivery.partition, batch.count));
    }
  }

  private async attempt(pending: Delivery[]): Promise<AttemptOutcome> {
    const outcome: AttemptOutcome = { retriable: [], fatal: [], producerLost: false };
    const byLeader = new Map<string, Delivery[]>();
    for (const delivery of pending) {
      const route = this.metadata.route(delivery.topic, delivery.partition);
      if (route.address === null) {
        outcome.retriable.push({ delivery, errorCode: route.errorCode, detail: "" });
        continue;
      }
      const list = byLeader.get(route.address);
      if (list) list.push(delivery);
      else byLeader.set(route.address, [delivery]);
    }
    const requests: Promise<void>[] = [];
    for (const [address, deliveries] of byLeader) {
      for (const request of this.cutRequests(deliveries)) requests.push(this.produce(address, request, outcome));
    }
    await Promise.all(requests);
    return outcome;
  }

  /** Consecutive groups of deliveries whose current batches stay within the request bound (at least one each). */
  private cutRequests(deliveries: Delivery[]): Delivery[][] {
    const requests: Delivery[][] = [];
    let current: Delivery[] = [];
    let bytes = 0;
    for (const delivery of deliveries) {
      const size = delivery.batches[delivery.acknowledged].bytes.length + delivery.topic.length + PARTITION_OVERHEAD_BYTES;
      if (current.length > 0 && bytes + size > this.settings.maxRequestBytes) {
        requests.push(current);
        current = [];
        bytes = 0;
      }
      current.push(delivery);
      bytes += size;
    }
    requests.push(current);
    return requests;
  }

  /** Sends one request and sorts its partitions into done, retriable and fatal; never rejects. */
  private async produce(address: string, deliveries: Delivery[], outcome: AttemptOutcome): Promise<void> {
    try {
      const connection = await this.pool.get(address);
      const response = await connection.request(PRODUCE, {
        transactionalId: this.options.transactional?.transactionalId ?? null,
        acks: -1,
        timeoutMs: this.settings.ackTimeoutMs,
        topicData: topicDataOf(deliveries),
      });
      const answered = new Map<string, { errorCode: number; baseOffset: bigint; errorMessage: string | null }>();
      for (const topic of response.responses) {
        for (const partition of topic.partitionResponses) answered.set(partitionKey(topic.name, partition.index), partition);
      }
      for (const delivery of deliveries) {
        const answer = answered.get(partitionKey(delivery.topic, delivery.partition));
        if (answer === undefined) outcome.fatal.push(new ProduceError(delivery.topic, delivery.partition, null, `broker ${address} left it out of its answer`));
        else this.sort(delivery, answer, outcome);
      }
    } catch (error) {
      if (!(error instanceof BrokerConnectionError)) {
        outcome.fatal.push(error as Error);
        return;
      }
      for (const delivery of deliveries) outcome.retriable.push({ delivery, errorCode: null, detail: error.message });
    }
  }

  private sort(delivery: Delivery, answer: { errorCode: number; baseOffset: bigint; errorMessage: string | null }, outcome: AttemptOutcome): void {
    const { errorCode } = answer;
    const detail = answer.errorMessage ?? "";
    if (errorCode === ErrorCode.NONE) acknowledge(delivery, Number(answer.baseOffset));
    else if (RETRIABLE_CODES.has(errorCode)) outcome.retriable.push({ delivery, errorCode, detail });
    else if (errorCode === ErrorCode.UNKNOWN_PRODUCER_ID && this.settings.idempotence && this.options.transactional === undefined) {
      outcome.producerLost = true;
      outcome.retriable.push({ delivery, errorCode, detail });
    } else if (errorCode === ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER) {
      const lost = "the broker lacks batches of this producer it acknowledged before (the cluster lost acknowledged records)";
      outcome.fatal.push(new ProduceError(delivery.topic, delivery.partition, errorCode, detail ? `${detail}; ${lost}` : lost));
    } else outcome.fatal.push(new ProduceError(delivery.topic, delivery.partition, errorCode, detail));
  }
}

function acknowledge(delivery: Delivery, baseOffset: number): void {
  if (delivery.acknowledged === 0) delivery.baseOffset = baseOffset;
  delivery.lastOffset = baseOffset + delivery.batches[delivery.acknowledged].count - 1;
  delivery.acknowledged++;
}

function topicDataOf(deliveries: Delivery[]) {
  const byTopic = new Map<string, { index: number; records: ChunkedBytes }[]>();
  for (const delivery of deliveries) {
    const partitionData = { index: delivery.partition, records: ChunkedBytes.of(delivery.batches[delivery.acknowledged].bytes) };
    const list = byTopic.get(delivery.topic);
    if (list) list.push(partitionData);
    else byTopic.set(delivery.topic, [partitionData]);
  }
  return [...byTopic].map(([name, partitionData]) => ({ name, partitionData }));
}

function assertDistinct(partitions: readonly (PartitionRecords | PartitionBatches)[]): void {
  const seen = new Set<string>();
  for (const { topic, partition } of partitions) {
    const id = partitionKey(topic, partition);
    if (seen.has(id)) throw new Error(`topic ${topic} partition ${partition} is given twice in one send`);
    seen.add(id);
  }
}
