/**
 * A producer for records whose partitions are already chosen: each call encodes every partition's records into
 * batches, sends one Produce request (acks = all) per leader broker — more when a partition's records exceed a
 * batch or a request exceeds its bound — and resolves with where each partition's records landed.
 *
 * A partition's records keep their order: its batches go out in rounds (a request holds at most one batch per
 * partition, as the protocol requires), and a round starts only once the previous one is acknowledged.
 * Within a round every request is in flight at once. Partitions that fail with a retriable error or a lost
 * connection are retried alone, after a metadata refresh and a backoff, within a bound of attempts and time.
 */
import { ChunkedBytes, codecId, codecsReady, type CompressionType, DEFAULT_MAX_BATCH_BYTES, type EncodedBatch, encodeRecordBatches, errorCodeName, type ProducerRecord } from "../kafka-protocol";
import { PRODUCE } from "./client-apis";
import { backoffMs } from "./backoff";
import { ClusterMetadata } from "./cluster-metadata";
import type { BrokerSecurity } from "./broker-connection";
import { ConnectionPool } from "./connection-pool";
import { BrokerConnectionError, ProduceError } from "./kafka-client-errors";
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import { RETRIABLE_CODES } from "./retriable-error-codes";

export interface PartitionRecords {
  topic: string;
  partition: number;
  records: readonly ProducerRecord[];
}

/** Where a partition's records landed: `baseOffset` … `lastOffset`; both -1 when it was given none. */
export interface PartitionOffsets {
  topic: string;
  partition: number;
  baseOffset: number;
  /** The last record's offset (contiguous with baseOffset unless another producer wrote between two batches). */
  lastOffset: number;
}

export interface RecordProducerOptions extends BrokerSecurity {
  /** `host:port` of one or more brokers; the rest of the cluster is learnt from them. */
  bootstrapServers: readonly string[];
  clientId: string;
  logger?: ComponentLogger;
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
  /** Attempts after the first for a partition that failed with a retriable error; default 8. */
  retries?: number;
  /** First backoff before a retry, doubled each time up to 1 s; default 100 ms. */
  retryBackoffMs?: number;
  /** No retry starts later than this after its round's first attempt; default 120 s. */
  deliveryTimeoutMs?: number;
}

const MAX_BACKOFF_MS = 1_000;
const MAX_RESPONSE_BYTES = 100 * 1024 * 1024;
/** A partition's share of a request beyond its batch: topic name, index, sizes (generous). */
const PARTITION_OVERHEAD_BYTES = 32;

/** One partition of one send: its batches, the next one to deliver, and the offsets learnt so far. */
interface Delivery {
  readonly topic: string;
  readonly partition: number;
  readonly batches: EncodedBatch[];
  next: number;
  baseOffset: number;
  lastOffset: number;
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
}

export class RecordProducer {
  private readonly pool: ConnectionPool;
  private readonly metadata: ClusterMetadata;
  private readonly logger: ComponentLogger;
  private readonly sending = new Set<Promise<unknown>>();
  private closed = false;
  private readonly settings: Required<Omit<RecordProducerOptions, "logger" | "bootstrapServers" | "clientId" | "compression" | "tls" | "sasl">>;
  private readonly codec: number;

  constructor(private readonly options: RecordProducerOptions) {
    this.settings = {
      maxBatchBytes: options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES,
      maxRequestBytes: options.maxRequestBytes ?? 16 * 1024 * 1024,
      ackTimeoutMs: options.ackTimeoutMs ?? 30_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 40_000,
      retries: options.retries ?? 8,
      retryBackoffMs: options.retryBackoffMs ?? 100,
      deliveryTimeoutMs: options.deliveryTimeoutMs ?? 120_000,
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
    this.metadata = new ClusterMetadata(options.bootstrapServers, this.pool);
  }

  /** Reaches a bootstrap broker, or rejects naming the last one tried. */
  async connect(): Promise<void> {
    this.assertOpen();
    await codecsReady();
    let lastError: unknown;
    for (const address of this.options.bootstrapServers) {
      try {
        await this.pool.get(address);
        return;
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  }

  /**
   * Writes each partition's records, in order, and resolves with their offsets, in the order given. Each
   * topic-partition may appear once. Rejects with a ProduceError naming the first partition that failed.
   * Order across calls holds for calls made one after the other (each awaited before the next).
   */
  send(partitions: readonly PartitionRecords[]): Promise<PartitionOffsets[]> {
    if (this.closed) return Promise.reject(new Error(`producer ${this.options.clientId} is closed`));
    const sending = this.deliver(partitions);
    this.sending.add(sending);
    const forget = () => this.sending.delete(sending);
    sending.then(forget, forget);
    return sending;
  }

  /** Lets the sends in progress finish, then closes every connection. Later sends reject. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.sending]);
    this.pool.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`producer ${this.options.clientId} is closed`);
  }

  private async deliver(partitions: readonly PartitionRecords[]): Promise<PartitionOffsets[]> {
    const deliveries = partitions.map(({ topic, partition, records }) => ({
      topic,
      partition,
      batches: encodeRecordBatches(records, this.settings.maxBatchBytes, this.codec),
      next: 0,
      baseOffset: -1,
      lastOffset: -1,
    }));
    assertDistinct(deliveries);
    const unknown = new Set(deliveries.filter((delivery) => !this.metadata.knows(delivery.topic)).map((delivery) => delivery.topic));
    if (unknown.size > 0) await this.refreshMetadata(unknown);
    for (;;) {
      const round = deliveries.filter((delivery) => delivery.next < delivery.batches.length);
      if (round.length === 0) break;
      await this.deliverRound(round);
      for (const delivery of round) delivery.next++;
    }
    return deliveries.map(({ topic, partition, baseOffset, lastOffset }) => ({ topic, partition, baseOffset, lastOffset }));
  }

  /** Delivers the next batch of each of `round`, retrying the partitions that fail with a retriable error. */
  private async deliverRound(round: Delivery[]): Promise<void> {
    const deadline = Date.now() + this.settings.deliveryTimeoutMs;
    let pending = round;
    for (let attempt = 1; ; attempt++) {
      const { retriable, fatal } = await this.attempt(pending);
      if (fatal.length > 0) throw fatal[0];
      if (retriable.length === 0) return;
      const backoff = backoffMs(this.settings.retryBackoffMs, attempt, MAX_BACKOFF_MS);
      if (attempt > this.settings.retries || Date.now() + backoff > deadline) {
        const { delivery, errorCode, detail } = retriable[0];
        throw new ProduceError(delivery.topic, delivery.partition, errorCode, `${detail ? `${detail}, ` : ""}still failing after ${attempt} attempts`);
      }
      this.logger.warn("produce retry", {
        attempt,
        backoffMs: backoff,
        partitions: retriable.map(({ delivery, errorCode, detail }) => `${delivery.topic}-${delivery.partition}: ${errorCode === null ? detail : errorCodeName(errorCode)}`),
      });
      await new Promise((resolve) => setTimeout(resolve, backoff));
      await this.refreshMetadata(new Set(retriable.map(({ delivery }) => delivery.topic)));
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

  private async attempt(pending: Delivery[]): Promise<AttemptOutcome> {
    const outcome: AttemptOutcome = { retriable: [], fatal: [] };
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
      const size = delivery.batches[delivery.next].bytes.length + delivery.topic.length + PARTITION_OVERHEAD_BYTES;
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
        transactionalId: null,
        acks: -1,
        timeoutMs: this.settings.ackTimeoutMs,
        topicData: topicDataOf(deliveries),
      });
      const answered = new Map<string, { errorCode: number; baseOffset: bigint; errorMessage: string | null }>();
      for (const topic of response.responses) {
        for (const partition of topic.partitionResponses) answered.set(`${topic.name}\u0000${partition.index}`, partition);
      }
      for (const delivery of deliveries) {
        const answer = answered.get(`${delivery.topic}\u0000${delivery.partition}`);
        if (answer === undefined) outcome.fatal.push(new ProduceError(delivery.topic, delivery.partition, null, `broker ${address} left it out of its answer`));
        else if (answer.errorCode === 0) acknowledge(delivery, Number(answer.baseOffset));
        else if (RETRIABLE_CODES.has(answer.errorCode)) outcome.retriable.push({ delivery, errorCode: answer.errorCode, detail: answer.errorMessage ?? "" });
        else outcome.fatal.push(new ProduceError(delivery.topic, delivery.partition, answer.errorCode, answer.errorMessage ?? ""));
      }
    } catch (error) {
      if (!(error instanceof BrokerConnectionError)) {
        outcome.fatal.push(error as Error);
        return;
      }
      for (const delivery of deliveries) outcome.retriable.push({ delivery, errorCode: null, detail: error.message });
    }
  }
}

function acknowledge(delivery: Delivery, baseOffset: number): void {
  if (delivery.next === 0) delivery.baseOffset = baseOffset;
  delivery.lastOffset = baseOffset + delivery.batches[delivery.next].count - 1;
}

function topicDataOf(deliveries: Delivery[]) {
  const byTopic = new Map<string, { index: number; records: ChunkedBytes }[]>();
  for (const delivery of deliveries) {
    const partitionData = { index: delivery.partition, records: ChunkedBytes.of(delivery.batches[delivery.next].bytes) };
    const list = byTopic.get(delivery.topic);
    if (list) list.push(partitionData);
    else byTopic.set(delivery.topic, [partitionData]);
  }
  return [...byTopic].map(([name, partitionData]) => ({ name, partitionData }));
}

function assertDistinct(deliveries: Delivery[]): void {
  const seen = new Set<string>();
  for (const { topic, partition } of deliveries) {
    const id = `${topic}\u0000${partition}`;
    if (seen.has(id)) throw new Error(`topic ${topic} partition ${partition} is given twice in one send`);
    seen.add(id);
  }
}
