/**
 * The stream thread's producer (Kafka Streams' StreamsProducer). Under at_least_once, an idempotent producer.
 * Under exactly_once_v2, one transactional producer for the thread (KIP-447: the consumer's group metadata, not one
 * producer per task, fences zombies): a transaction begins with the first send after a commit and ends when the
 * thread commits, holding everything sent meanwhile — outputs, changelog and repartition records, dead letters — and
 * the consumed offsets.
 *
 * A transaction that fails is lost whole (TaskMigrated, in Kafka Streams' words): the thread drops the work it held
 * and takes its partitions again from the group's offsets. `recover` readies the producer for that: it aborts a
 * transaction that can be aborted, and replaces a producer that was fenced (its epoch bumped by a timeout, or taken by
 * another producer with its id) with a new one under the same transactional id.
 */
import { MembershipLostError, RecordProducer, TransactionalProducer, TransactionError, type ConsumerGroupMetadata, type PartitionBatches, type PartitionOffsets, type RecordProducerOptions, type TopicPartitionOffset } from "../../../kafka-client";
import type { RunMetrics } from "../../metrics/run-metrics";

export interface StreamsProducerOptions extends Omit<RecordProducerOptions, "transactional"> {
  /** Under exactly_once_v2: the thread's transactional id and how long the cluster lets a transaction stay open. */
  transaction?: { transactionalId: string; transactionTimeoutMs: number };
  metrics: Pick<RunMetrics, "transactionsInitialized" | "transactionCommitted" | "transactionAborted">;
}

/** Whether the transaction failed in a way that loses its work but not the thread: abort, drop the work, rejoin. */
export function isTransactionLost(error: unknown): error is TransactionError {
  return error instanceof TransactionError && (error.kind === "abortable" || error.fenced);
}

const elapsedNs = (since: bigint) => Number(process.hrtime.bigint() - since);

export class StreamsProducer {
  private idempotent?: RecordProducer;
  private transactions?: TransactionalProducer;
  /** When the open transaction's first send was made (ms); -1 with none open. */
  private openedAt = -1;

  constructor(private readonly options: StreamsProducerOptions) {}

  get exactlyOnce(): boolean {
    return this.options.transaction !== undefined;
  }

  /** Whether a transaction holds writes not yet committed (always false under at_least_once). */
  get inTransaction(): boolean {
    return this.transactions?.inTransaction ?? false;
  }

  /** Connects (at_least_once), or registers the transactional id, fencing an earlier producer of it (exactly_once_v2). */
  async start(): Promise<void> {
    if (!this.exactlyOnce) {
      const { transaction, metrics, ...options } = this.options;
      this.idempotent = new RecordProducer(options);
      await this.idempotent.connect();
      return;
    }
    await this.initTransactions();
  }

  /** Writes the partitions' records; under exactly_once_v2 within the open transaction, which it begins if need be. */
  send(partitions: PartitionBatches[]): Promise<PartitionOffsets[]> {
    if (this.idempotent !== undefined) return this.idempotent.send(partitions);
    const transactions = this.transactions!;
    if (!transactions.inTransaction) this.begin(transactions);
    return transactions.send(partitions);
  }

  /**
   * Commits the open transaction with `offsets` (each the next offset to consume) under the consumer's `group`
   * membership: its writes and the offsets count together, or neither does. Only under exactly_once_v2.
   */
  async commitTransaction(offsets: readonly TopicPartitionOffset[], group: ConsumerGroupMetadata): Promise<void> {
    const transactions = this.transactions;
    if (transactions === undefined) throw new Error("only an exactly_once_v2 producer commits transactions");
    if (!transactions.inTransaction) {
      if (offsets.length === 0) return;
      this.begin(transactions);
    }
    const sendOffsetsStarted = process.hrtime.bigint();
    await transactions.sendOffsetsToTransaction(offsets, group);
    const commitStarted = process.hrtime.bigint();
    await transactions.commitTransaction();
    this.options.metrics.transactionCommitted({ openMs: Date.now() - this.openedAt, sendOffsetsNs: Number(commitStarted - sendOffsetsStarted), commitNs: elapsedNs(commitStarted) });
    this.openedAt = -1;
  }

  /**
   * After `error` lost the transaction (isTransactionLost): aborts it when it can be aborted, or replaces a fenced
   * producer with a new one of the same transactional id. Either way the next send begins a new transaction.
   */
  async recover(error: TransactionError): Promise<void> {
    const transactions = this.transactions!;
    if (error.kind === "fatal") {
      this.options.logger?.warn("the thread's transactional producer was fenced; a new one takes its transactional id", { transactionalId: transactions.transactionalId, error: error.message });
      await transactions.close();
      this.options.metrics.transactionAborted(0);
      await this.initTransactions();
      return;
    }
    await this.abortTransaction();
  }

  /** Aborts the open transaction, if any (under exactly_once_v2): none of its writes or offsets will count. */
  async abortTransaction(): Promise<void> {
    const transactions = this.transactions;
    if (transactions === undefined || !transactions.inTransaction) return;
    const started = process.hrtime.bigint();
    try {
      await transactions.abortTransaction();
    } catch (error) {
      // A producer fenced meanwhile has nothing left to abort: its coordinator aborted the transaction.
      if (!(error instanceof TransactionError && error.fenced)) throw error;
      await this.recover(error);
      return;
    }
    this.openedAt = -1;
    this.options.metrics.transactionAborted(elapsedNs(started));
  }

  /** Closes the producer; an open transaction is left to its coordinator (the next producer of the id aborts it). */
  async close(): Promise<void> {
    await this.idempotent?.close();
    await this.transactions?.close();
  }

  private begin(transactions: TransactionalProducer): void {
    transactions.beginTransaction();
    this.openedAt = Date.now();
  }

  private async initTransactions(): Promise<void> {
    const { transaction, metrics, idempotence, ...options } = this.options;
    const transactions = new TransactionalProducer({ ...options, ...transaction! });
    this.transactions = transactions;
    this.openedAt = -1;
    const started = process.hrtime.bigint();
    await transactions.initTransactions();
    metrics.transactionsInitialized(elapsedNs(started));
  }
}

/** The error the thread rejoins its group with after a lost transaction: its tasks' uncommitted work is gone. */
export function transactionLost(error: TransactionError): MembershipLostError {
  return new MembershipLostError(`the transaction was lost (${error.message}); its work is dropped and processed again from the last commit`);
}
