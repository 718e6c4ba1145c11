/**
 * A transactional producer (KIP-98), with Kafka's producer API in TypeScript form: `initTransactions` once, then
 * `beginTransaction`, `send`s, `sendOffsetsToTransaction` with the consumer's group metadata (KIP-447), and
 * `commitTransaction` or `abortTransaction`. Every transaction's records and offsets become visible to read_committed
 * consumers together, or never.
 *
 * It speaks transactions V1, which every Kafka broker since 0.11 serves (Kafka 4.x included): partitions are added
 * to the transaction (AddPartitionsToTxn) before the first records go to them, and the epoch stays the same from
 * one transaction to the next. `initTransactions` takes the transactional id's producer id at a new epoch, which
 * fences any older producer of the same id (a zombie instance): its writes, offset commits and commit are refused
 * from then on, and its open transaction is aborted.
 *
 * Errors are TransactionErrors of three kinds, as Kafka's producer has them (see transaction-errors): retriable ones
 * are retried within `maxBlockMs` and only then thrown (the call may be made again); after an abortable one the
 * transaction can only be aborted, and the producer goes on with the next; after a fatal one (fenced, not allowed)
 * every call but `close` throws it again. A transaction that an error made abortable is aborted under a new epoch
 * (KIP-360), so the next one starts with fresh sequence numbers.
 */
import { codecsReady, ErrorCode } from "../kafka-protocol";
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import { backoffMs } from "./backoff";
import type { BrokerConnection } from "./broker-connection";
import { ADD_OFFSETS_TO_TXN, ADD_PARTITIONS_TO_TXN, END_TXN, INIT_PRODUCER_ID, TXN_OFFSET_COMMIT } from "./client-apis";
import { CoordinatorKeyType, CoordinatorLocator, type CoordinatorKey } from "./coordinator-locator";
import type { TopicPartitionOffset } from "./group-membership";
import { BrokerConnectionError, ProduceError } from "./kafka-client-errors";
import { RecordProducer, type PartitionBatches, type PartitionOffsets, type PartitionRecords, type ProducerIdentity, type RecordProducerOptions } from "./record-producer";
import { COORDINATOR_MOVED, isRetried, kindOf, TransactionError, type TransactionalOperation } from "./transaction-errors";

export interface TransactionalProducerOptions extends Omit<RecordProducerOptions, "idempotence" | "transactional"> {
  /** Names the producer across restarts: a new producer with the same id fences the old one (transactional.id). */
  transactionalId: string;
  /** How long the coordinator lets a transaction run before it aborts it (transaction.timeout.ms); default 60 s. */
  transactionTimeoutMs?: number;
  /** How long a call retries what its coordinator answers with retriable errors (max.block.ms); default 60 s. */
  maxBlockMs?: number;
}

/** A consumer's group and its membership, which a transaction's offsets are committed under (KIP-447). */
export interface ConsumerGroupMetadata {
  groupId: string;
  /** -1 with no membership (a consumer that assigns itself partitions): then the coordinator checks none. */
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
}

type State = "uninitialized" | "ready" | "inTransaction" | "abortableError" | "fatalError" | "closed";

const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export class TransactionalProducer {
  private state: State = "uninitialized";
  private identity: ProducerIdentity | null = null;
  private readonly records: RecordProducer;
  private readonly coordinator: CoordinatorLocator;
  private readonly groupCoordinators = new Map<string, CoordinatorLocator>();
  private readonly logger: ComponentLogger;
  private readonly transactionTimeoutMs: number;
  private readonly maxBlockMs: number;
  /** The transaction's partitions, added at its coordinator. */
  private readonly partitions = new Set<string>();
  /** Whether the transaction has anything at its coordinator (partitions or offsets), so that it must be ended there. */
  private started = false;
  /** Sends one after another, each adding its partitions before its records go: what commit waits for. */
  private sending: Promise<unknown> = Promise.resolve();
  /** The error that put the producer in abortableError or fatalError. */
  private failure: TransactionError | null = null;

  constructor(private readonly options: TransactionalProducerOptions) {
    if (options.transactionalId === "") throw new Error("a transactional producer needs a non-empty transactionalId");
    this.logger = options.logger ?? silentLogger;
    this.transactionTimeoutMs = options.transactionTimeoutMs ?? 60_000;
    this.maxBlockMs = options.maxBlockMs ?? 60_000;
    this.records = new RecordProducer({
      ...options,
      transactional: {
        transactionalId: options.transactionalId,
        identity: () => {
          if (this.identity === null) throw new Error(`transactional producer ${options.transactionalId} has no producer id yet`);
          return this.identity;
        },
      },
    });
    const coordinated: CoordinatorKey = { key: options.transactionalId, keyType: CoordinatorKeyType.TRANSACTION };
    this.coordinator = new CoordinatorLocator(this.records.pool, () => this.brokers(), coordinated, (errorCode) => this.coordinatorNotFound(errorCode, `transactional id ${options.transactionalId}`));
  }

  get transactionalId(): string {
    return this.options.transactionalId;
  }

  /** The producer id and epoch the coordinator gave (null before initTransactions): what fences this producer's elders. */
  get producerIdentity(): ProducerIdentity | null {
    return this.identity;
  }

  /** Whether a transaction is under way (begun, and neither committed nor aborted). */
  get inTransaction(): boolean {
    return this.state === "inTransaction" || this.state === "abortableError";
  }

  /**
   * Registers the transactional id with its coordinator: takes its producer id at a new epoch, which fences every
   * older producer of the id and aborts a transaction one of them left open. Call once, before the first transaction.
   */
  async initTransactions(): Promise<void> {
    this.assertState("initTransactions", ["uninitialized"]);
    await codecsReady();
    this.identity = await this.requestIdentity("initTransactions", null);
    this.state = "ready";
    this.logger.debug("transactional producer initialized", { transactionalId: this.transactionalId, producerId: String(this.identity.producerId), producerEpoch: this.identity.producerEpoch });
  }

  beginTransaction(): void {
    this.assertState("send", ["ready"]);
    this.state = "inTransaction";
    this.started = false;
    this.partitions.clear();
  }

  /**
   * Writes each partition's records within the transaction (see RecordProducer.send), first adding the partitions
   * new to it. A failure makes the transaction abortable (or the producer unusable, when it was fenced).
   */
  send(partitions: readonly (PartitionRecords | PartitionBatches)[]): Promise<PartitionOffsets[]> {
    try {
      this.assertState("send", ["inTransaction"]);
    } catch (error) {
      return Promise.reject(error);
    }
    const sent = this.sending.then(async () => {
      this.assertState("send", ["inTransaction"]);
      await this.addPartitions(partitions);
      try {
        return await this.records.send(partitions);
      } catch (error) {
        throw this.sendFailed(error);
      }
    });
    this.sending = sent.catch(() => undefined);
    return sent;
  }

  /**
   * Commits `offsets` (each the next offset to consume) for the group with the transaction: they count once it
   * commits, and never if it aborts. The group's coordinator refuses them when `group` names a member whose
   * generation is over (a zombie), which makes the transaction abortable.
   */
  async sendOffsetsToTransaction(offsets: readonly TopicPartitionOffset[], group: ConsumerGroupMetadata): Promise<void> {
    const operation = "sendOffsetsToTransaction";
    this.assertState(operation, ["inTransaction"]);
    if (offsets.length === 0) return;
    try {
      await this.coordinatorCall(operation, this.coordinator, async (connection) => {
        const answer = await connection.request(ADD_OFFSETS_TO_TXN, { ...this.writer(), groupId: group.groupId });
        return answer.errorCode;
      });
      this.started = true;
      const byTopic = new Map<string, { partitionIndex: number; committedOffset: bigint; committedLeaderEpoch: number; committedMetadata: string | null }[]>();
      for (const { topic, partition, offset } of offsets) {
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), { partitionIndex: partition, committedOffset: BigInt(offset), committedLeaderEpoch: -1, committedMetadata: null }]);
      }
      await this.coordinatorCall(operation, this.groupCoordinator(group.groupId), async (connection) => {
        const answer = await connection.request(TXN_OFFSET_COMMIT, {
          ...this.writer(),
          groupId: group.groupId,
          generationId: group.generationId,
          memberId: group.memberId,
          groupInstanceId: group.groupInstanceId,
          topics: [...byTopic].map(([name, partitions]) => ({ name, partitions })),
        });
        return firstError(answer.topics.flatMap(({ partitions }) => partitions.map(({ errorCode }) => errorCode)));
      });
    } catch (error) {
      throw this.failed(error);
    }
  }

  /**
   * Commits the transaction once its sends are done: its records and offsets become visible together. Throws the
   * error that made it abortable, if one did: then only abortTransaction is left.
   */
  async commitTransaction(): Promise<void> {
    const operation = "commitTransaction";
    this.assertState(operation, ["inTransaction", "abortableError"]);
    await this.sending;
    if (this.state === "abortableError") throw this.failure!;
    this.assertState(operation, ["inTransaction"]);
    try {
      if (this.started) await this.endTransaction(operation, true);
    } catch (error) {
      throw this.failed(error);
    }
    this.state = "ready";
  }

  /**
   * Aborts the transaction once its sends are over: none of its records or offsets will be read read_committed.
   * After an error that made it abortable, the producer takes a new epoch (fresh sequences) for the next one.
   */
  async abortTransaction(): Promise<void> {
    const operation = "abortTransaction";
    this.assertState(operation, ["inTransaction", "abortableError"]);
    await this.sending;
    this.assertState(operation, ["inTransaction", "abortableError"]);
    const afterFailure = this.state === "abortableError";
    try {
      if (this.started) await this.endTransaction(operation, false);
      if (afterFailure) {
        this.identity = await this.requestIdentity(operation, this.identity);
        this.records.resetSequences();
      }
    } catch (error) {
      throw this.failed(error);
    }
    this.failure = null;
    this.state = "ready";
  }

  /** Closes the connections; an open transaction is left to its coordinator, which aborts it after its timeout. */
  async close(): Promise<void> {
    this.state = "closed";
    await this.records.close();
  }

  /** InitProducerId at the coordinator, retried while it is busy (aborting a fenced producer's transaction). */
  private requestIdentity(operation: TransactionalOperation, current: ProducerIdentity | null): Promise<ProducerIdentity> {
    let identity: ProducerIdentity | null = null;
    return this.coordinatorCall(operation, this.coordinator, async (connection) => {
      if (current !== null && connection.versionOf(INIT_PRODUCER_ID) < 3) {
        throw this.error(operation, "fatal", null, "the coordinator cannot give a new epoch to a producer after an error (InitProducerId v3, Kafka 2.5)");
      }
      const answer = await connection.request(INIT_PRODUCER_ID, {
        transactionalId: this.transactionalId,
        transactionTimeoutMs: this.transactionTimeoutMs,
        producerId: current?.producerId ?? -1n,
        producerEpoch: current?.producerEpoch ?? -1,
      });
      identity = { producerId: answer.producerId, producerEpoch: answer.producerEpoch };
      return answer.errorCode;
    }).then(() => identity!);
  }

  private async addPartitions(partitions: readonly { topic: string; partition: number }[]): Promise<void> {
    const added = partitions.filter(({ topic, partition }) => !this.partitions.has(key(topic, partition)));
    if (added.length === 0) return;
    const byTopic = new Map<string, number[]>();
    for (const { topic, partition } of added) byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
    try {
      await this.coordinatorCall("send", this.coordinator, async (connection) => {
        const answer = await connection.request(ADD_PARTITIONS_TO_TXN, { ...this.writer(), topics: [...byTopic].map(([name, list]) => ({ name, partitions: list })) });
        return firstError(answer.results.flatMap(({ partitions: results }) => results.map(({ errorCode }) => errorCode)));
      }, true);
    } catch (error) {
      throw this.failed(error);
    }
    for (const { topic, partition } of added) this.partitions.add(key(topic, partition));
    this.started = true;
  }

  private async endTransaction(operation: TransactionalOperation, committed: boolean): Promise<void> {
    await this.coordinatorCall(operation, this.coordinator, async (connection) => (await connection.request(END_TXN, { ...this.writer(), committed })).errorCode);
  }

  /**
   * Runs one coordinator request until it is answered without error, retrying lost connections and retriable codes
   * (looking the coordinator up again when it moved) within maxBlockMs; any other code becomes a TransactionError.
   */
  private async coordinatorCall(
    operation: TransactionalOperation,
    coordinator: CoordinatorLocator,
    ask: (connection: BrokerConnection) => Promise<number>,
    addingPartitions = false,
  ): Promise<void> {
    const deadline = Date.now() + this.maxBlockMs;
    for (let attempt = 1; ; attempt++) {
      let errorCode: number | null = null;
      let detail = "";
      try {
        errorCode = await ask(await coordinator.connection());
        if (errorCode === ErrorCode.NONE) return;
        if (!isRetried(errorCode)) throw this.error(operation, kindOf(operation, errorCode, addingPartitions), errorCode, "");
        if (COORDINATOR_MOVED.has(errorCode)) coordinator.forget();
      } catch (error) {
        if (error instanceof TransactionError && error.kind === "retriable") errorCode = error.errorCode;
        else if (error instanceof BrokerConnectionError) {
          coordinator.forget();
          detail = error.message;
        } else throw error;
      }
      const backoff = backoffMs(this.options.retryBackoffMs ?? 100, attempt, this.options.retryBackoffMaxMs ?? 1_000);
      if (Date.now() + backoff > deadline) throw this.error(operation, "retriable", errorCode, `${detail ? `${detail}, ` : ""}still failing after ${this.maxBlockMs} ms (max.block.ms)`);
      await new Promise((resolve) => setTimeout(resolve, backoff));
      if (this.state === "closed") throw this.error(operation, "fatal", null, "the producer was closed");
    }
  }

  /** A send's failure as a TransactionError, which makes the transaction abortable or the producer fatal. */
  private sendFailed(error: unknown): TransactionError {
    if (error instanceof TransactionError) return this.failed(error);
    if (!(error instanceof ProduceError) || error.errorCode === null) return this.failed(this.error("send", "abortable", null, (error as Error).message));
    return this.failed(this.error("send", kindOf("send", error.errorCode), error.errorCode, `producing to ${error.topic} partition ${error.partition}`));
  }

  /** Takes `error` in: a TransactionError's kind moves the producer to its state; anything else is thrown as it is. */
  private failed(error: unknown): TransactionError {
    if (!(error instanceof TransactionError)) throw error;
    if (error.kind === "fatal") {
      this.state = "fatalError";
      this.failure = error;
    } else if (error.kind === "abortable" && this.state === "inTransaction") {
      this.state = "abortableError";
      this.failure = error;
    }
    if (error.kind !== "retriable") this.logger.warn("transactional producer failed", { transactionalId: this.transactionalId, kind: error.kind, error: error.message });
    return error;
  }

  private assertState(operation: TransactionalOperation, allowed: State[]): void {
    if (allowed.includes(this.state)) return;
    if (this.state === "fatalError") throw this.failure!;
    const why: Record<State, string> = {
      uninitialized: "call initTransactions first",
      ready: "no transaction is open: call beginTransaction first",
      inTransaction: "a transaction is open",
      abortableError: `the transaction failed and can only be aborted (${this.failure?.message})`,
      fatalError: "",
      closed: "the producer is closed",
    };
    throw this.error(operation, this.state === "abortableError" ? "abortable" : "fatal", null, why[this.state]);
  }

  private error(operation: TransactionalOperation, kind: TransactionError["kind"], errorCode: number | null, detail: string): TransactionError {
    return new TransactionError(this.transactionalId, operation, kind, errorCode, detail);
  }

  /** The transactional id with the producer id and epoch, as every transactional request names its writer. */
  private writer(): { transactionalId: string; producerId: bigint; producerEpoch: number } {
    return { transactionalId: this.transactionalId, producerId: this.identity!.producerId, producerEpoch: this.identity!.producerEpoch };
  }

  private groupCoordinator(groupId: string): CoordinatorLocator {
    let locator = this.groupCoordinators.get(groupId);
    if (locator === undefined) {
      const coordinated: CoordinatorKey = { key: groupId, keyType: CoordinatorKeyType.GROUP };
      locator = new CoordinatorLocator(this.records.pool, () => this.brokers(), coordinated, (errorCode) => this.coordinatorNotFound(errorCode, `group ${groupId}`));
      this.groupCoordinators.set(groupId, locator);
    }
    return locator;
  }

  /** FindCoordinator's refusal: retried like the coordinator's own answers when its code is, else final. */
  private coordinatorNotFound(errorCode: number, of: string): TransactionError {
    const operation = of.startsWith("group") ? "sendOffsetsToTransaction" : "initTransactions";
    return this.error(operation, isRetried(errorCode) ? "retriable" : kindOf(operation, errorCode), errorCode, `no coordinator found for ${of}`);
  }

  private brokers(): string[] {
    return [...new Set([...this.records.pool.openAddresses(), ...this.options.bootstrapServers])];
  }
}

/** The code of a multi-part answer that decides it: the first error other than "not attempted", else that one. */
function firstError(codes: number[]): number {
  return codes.find((code) => code !== ErrorCode.NONE && code !== ErrorCode.OPERATION_NOT_ATTEMPTED) ?? codes.find((code) => code !== ErrorCode.NONE) ?? ErrorCode.NONE;
}
