/**
 * The transaction coordinator (KIP-98, with KIP-360's producer recovery and KIP-447's group-aware offset commits),
 * as Kafka's transactions V1: a transactional id gets a producer id and an epoch that each InitProducerId bumps,
 * fencing the producers that had the older epochs; its transaction gathers partitions (AddPartitionsToTxn) and
 * groups' offsets (AddOffsetsToTxn, TxnOffsetCommit), and ends with EndTxn: the decision written to the transaction
 * log first (PrepareCommit, PrepareAbort), then the markers and offsets, then the completion. A transaction whose
 * producer stays silent past its timeout is aborted under a bumped epoch, which fences that producer. Every change is
 * written to the transaction log before it counts or is answered; a restart reads the log back and finishes the
 * transactions that were ending.
 *
 * The wire handlers translate requests to these calls and error codes back; the coordinator knows nothing of the wire.
 */
import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import type { ComponentLogger } from "../../../kernel/logger";
import type { GroupCoordinator } from "../group/group-coordinator";
import type { LogStore } from "../storage/log-store";
import { commitGroupOffsets, writeMarkers } from "./transaction-markers";
import { TRANSACTION_STATE_TOPIC, TransactionLog } from "./transaction-log";
import {
  holdsPartitions,
  isEpochExhausted,
  isOpen,
  MAX_PRODUCER_EPOCH,
  STATE_NAMES,
  withGroupOffsets,
  withPartitions,
  type PendingOffset,
  type TransactionMetadata,
  type TransactionStateName,
} from "./transaction-metadata";

export interface TransactionCoordinatorOptions {
  store: LogStore;
  /** Admits the members that name themselves in TxnOffsetCommit, by the rules of their group's protocol. */
  groups: Pick<GroupCoordinator, "validateOffsetCommit">;
  logger: ComponentLogger;
  /** The longest transaction timeout a producer may ask for (Kafka's transaction.max.timeout.ms); default 15 minutes. */
  maxTimeoutMs?: number;
  /** How often timed-out transactions are looked for (transaction.abort.timed.out.transaction.cleanup.interval.ms); default 10 s. */
  timeoutCheckIntervalMs?: number;
  /** An id whose producer did nothing for this long is forgotten (transactional.id.expiration.ms); default 7 days. */
  idExpirationMs?: number;
}

export interface ProducerIdAndEpoch {
  producerId: bigint;
  producerEpoch: number;
}

export interface InitProducerIdResult extends ProducerIdAndEpoch {
  errorCode: ErrorCodeValue;
}

/** Who writes: a transactional id with the producer id and epoch it was given. */
export interface TransactionalProducer extends ProducerIdAndEpoch {
  transactionalId: string;
}

/** A group member's identity, as TxnOffsetCommit v3+ carries it (KIP-447): a zombie member's commits are refused. */
export interface GroupMemberIdentity {
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
}

export interface DescribedTransaction {
  errorCode: ErrorCodeValue;
  transactionalId: string;
  state: TransactionStateName | "";
  timeoutMs: number;
  startMs: number;
  producerId: bigint;
  producerEpoch: number;
  /** The transaction's partitions, and `__consumer_offsets` partition 0 when it commits offsets (as Kafka lists the group's). */
  topics: { topic: string; partitions: number[] }[];
}

export interface TransactionListing {
  transactionalId: string;
  producerId: bigint;
  state: TransactionStateName;
}

export interface TransactionFilters {
  states: string[];
  producerIds: bigint[];
  /** Only transactions running longer than this; -1: any. */
  minDurationMs: number;
  /** A regular expression the ids must match; null: any. */
  idPattern: string | null;
}

const DEFAULTS = { maxTimeoutMs: 15 * 60 * 1000, timeoutCheckIntervalMs: 10_000, idExpirationMs: 7 * 24 * 60 * 60 * 1000 };

/** An answer that ends an operation early: the error code to reply with. */
class Refusal {
  constructor(readonly errorCode: ErrorCodeValue) {}
}

export class TransactionCoordinator {
  private readonly transactions = new Map<string, TransactionMetadata>();
  /** Ids with an operation under way: others on the same id are answered CONCURRENT_TRANSACTIONS, as Kafka does. */
  private readonly busy = new Set<string>();
  private readonly log: TransactionLog;
  private readonly settings: typeof DEFAULTS;
  private readonly logger: ComponentLogger;
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;
  private closed = false;

  private constructor(private readonly options: TransactionCoordinatorOptions) {
    this.logger = options.logger;
    this.log = new TransactionLog(options.store, options.logger);
    this.settings = {
      maxTimeoutMs: options.maxTimeoutMs ?? DEFAULTS.maxTimeoutMs,
      timeoutCheckIntervalMs: options.timeoutCheckIntervalMs ?? DEFAULTS.timeoutCheckIntervalMs,
      idExpirationMs: options.idExpirationMs ?? DEFAULTS.idExpirationMs,
    };
  }

  /** Reads the transaction log back, finishes the transactions that were ending, and starts looking for timeouts. */
  static async start(options: TransactionCoordinatorOptions): Promise<TransactionCoordinator> {
    const coordinator = new TransactionCoordinator(options);
    for (const metadata of await coordinator.log.load()) coordinator.transactions.set(metadata.transactionalId, metadata);
    for (const metadata of coordinator.transactions.values()) {
      if (metadata.state === "PrepareCommit" || metadata.state === "PrepareAbort") await coordinator.run(metadata.transactionalId, () => coordinator.complete(metadata));
    }
    coordinator.timer = setInterval(() => void coordinator.sweep(), coordinator.settings.timeoutCheckIntervalMs);
    coordinator.timer.unref();
    return coordinator;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * InitProducerId with a transactional id: the id's producer id at a bumped epoch, which fences every older one. An
   * open transaction is aborted first (under a bumped epoch) and the caller told CONCURRENT_TRANSACTIONS, to ask again
   * once it is. `current` (KIP-360) is the producer's own id and epoch, from a producer that recovers after an error.
   */
  initProducerId(transactionalId: string, timeoutMs: number, current: ProducerIdAndEpoch | null, allocateProducerId: () => Promise<bigint>): Promise<InitProducerIdResult> {
    const refused = (errorCode: ErrorCodeValue): InitProducerIdResult => ({ errorCode, producerId: -1n, producerEpoch: -1 });
    if (transactionalId === "") return Promise.resolve(refused(ErrorCode.INVALID_REQUEST));
    if (timeoutMs <= 0 || timeoutMs > this.settings.maxTimeoutMs) return Promise.resolve(refused(ErrorCode.INVALID_TRANSACTION_TIMEOUT));
    return this.run(transactionalId, async (): Promise<InitProducerIdResult> => {
      const known = this.transactions.get(transactionalId);
      const metadata = known ?? this.created(transactionalId, await allocateProducerId(), timeoutMs);
      if (current !== null && metadata.producerEpoch !== -1 && current.producerId !== metadata.producerId) throw new Refusal(ErrorCode.PRODUCER_FENCED);
      switch (metadata.state) {
        case "PrepareCommit":
        case "PrepareAbort":
          throw new Refusal(ErrorCode.CONCURRENT_TRANSACTIONS);
        case "Ongoing":
          await this.abortFenced(metadata, "a new producer initialized the transactional id");
          throw new Refusal(ErrorCode.CONCURRENT_TRANSACTIONS);
        default: {
          const next = await this.bumped(metadata, timeoutMs, current, allocateProducerId);
          await this.save(next);
          this.logger.debug("transactional producer initialized", { transactionalId, producerId: String(next.producerId), producerEpoch: next.producerEpoch });
          return { errorCode: ErrorCode.NONE, producerId: next.producerId, producerEpoch: next.producerEpoch };
        }
      }
    }).catch((error: unknown) => refused(this.codeOf(error)));
  }

  /** AddPartitionsToTxn: the partitions join the producer's transaction, which starts with its first. */
  addPartitions(producer: TransactionalProducer, partitions: ReadonlyMap<string, readonly number[]>): Promise<ErrorCodeValue> {
    return this.change(producer, (metadata) => {
      if (metadata.state === "Ongoing" && holdsPartitions(metadata, partitions)) return null;
      return { ...this.started(metadata), partitions: withPartitions(metadata.partitions, partitions) };
    });
  }

  /** AddOffsetsToTxn: the group's offset commits join the producer's transaction. */
  addOffsets(producer: TransactionalProducer, groupId: string): Promise<ErrorCodeValue> {
    return this.change(producer, (metadata) => {
      if (metadata.state === "Ongoing" && metadata.groups.has(groupId)) return null;
      return { ...this.started(metadata), groups: withGroupOffsets(metadata.groups, groupId, new Map()) };
    });
  }

  /**
   * TxnOffsetCommit: offsets kept with the transaction, committed with it. The group must have joined it
   * (AddOffsetsToTxn); a member that names itself must be the group's current one.
   */
  commitOffsets(producer: TransactionalProducer, groupId: string, member: GroupMemberIdentity, offsets: ReadonlyMap<string, ReadonlyMap<number, PendingOffset>>): Promise<ErrorCodeValue> {
    const named = member.memberId !== "" || member.generationId >= 0 || member.groupInstanceId !== null;
    if (named) {
      const memberError = this.options.groups.validateOffsetCommit({ groupId, ...member });
      if (memberError !== ErrorCode.NONE) return Promise.resolve(memberError);
    }
    return this.change(producer, (metadata) => {
      if (metadata.state !== "Ongoing" || !metadata.groups.has(groupId)) throw new Refusal(ErrorCode.INVALID_TXN_STATE);
      return { ...metadata, groups: withGroupOffsets(metadata.groups, groupId, offsets), lastUpdateMs: Date.now() };
    });
  }

  /** EndTxn: commits or aborts the producer's transaction; NONE once the decision is durable. */
  endTransaction(producer: TransactionalProducer, committed: boolean): Promise<ErrorCodeValue> {
    return this.run(producer.transactionalId, async () => {
      const metadata = this.producersTransaction(producer);
      const ending = committed ? "PrepareCommit" : "PrepareAbort";
      const ended = committed ? "CompleteCommit" : "CompleteAbort";
      switch (metadata.state) {
        case "Ongoing": {
          const prepared: TransactionMetadata = { ...metadata, state: ending, lastUpdateMs: Date.now() };
          await this.save(prepared);
          await this.complete(prepared);
          return ErrorCode.NONE;
        }
        case ended:
          return ErrorCode.NONE;
        case ending:
          return ErrorCode.CONCURRENT_TRANSACTIONS;
        default:
          return ErrorCode.INVALID_TXN_STATE;
      }
    }).catch((error: unknown) => this.codeOf(error));
  }

  /**
   * May this producer write a transactional batch to this partition now (KIP-890's verification)? Only into its
   * open transaction, under its current epoch, to a partition added to it: a zombie's late write is refused, and no
   * write opens a transaction in a partition its coordinator would not end.
   */
  verifyWrite(producer: TransactionalProducer, topic: string, partition: number): ErrorCodeValue {
    const metadata = this.transactions.get(producer.transactionalId);
    if (metadata === undefined || metadata.producerId !== producer.producerId) return ErrorCode.INVALID_PRODUCER_ID_MAPPING;
    if (metadata.producerEpoch !== producer.producerEpoch) return ErrorCode.INVALID_PRODUCER_EPOCH;
    if (metadata.state !== "Ongoing" || !metadata.partitions.get(topic)?.has(partition)) return ErrorCode.INVALID_TXN_STATE;
    return ErrorCode.NONE;
  }

  /**
   * Whether an open transaction is committing an offset of the group's partition (TxnOffsetCommit, not yet ended):
   * OffsetFetch with requireStable answers UNSTABLE_OFFSET_COMMIT for it until the transaction ends (KIP-447).
   */
  hasPendingOffset(groupId: string, topic: string, partition: number): boolean {
    for (const metadata of this.transactions.values()) {
      if (isOpen(metadata.state) && metadata.groups.get(groupId)?.get(topic)?.has(partition)) return true;
    }
    return false;
  }

  describe(transactionalId: string): DescribedTransaction {
    const metadata = this.transactions.get(transactionalId);
    if (metadata === undefined) {
      const errorCode = transactionalId === "" ? ErrorCode.INVALID_REQUEST : ErrorCode.TRANSACTIONAL_ID_NOT_FOUND;
      return { errorCode, transactionalId, state: "", timeoutMs: 0, startMs: -1, producerId: -1n, producerEpoch: -1, topics: [] };
    }
    const topics = [...metadata.partitions].map(([topic, partitions]) => ({ topic, partitions: [...partitions].sort((a, b) => a - b) }));
    if (metadata.groups.size > 0) topics.push({ topic: "__consumer_offsets", partitions: [0] });
    return {
      errorCode: ErrorCode.NONE,
      transactionalId,
      state: metadata.state,
      timeoutMs: metadata.timeoutMs,
      startMs: metadata.startMs,
      producerId: metadata.producerId,
      producerEpoch: metadata.producerEpoch,
      topics,
    };
  }

  /** The ids that pass every filter given, and the state filters that name no state. */
  list(filters: TransactionFilters): { transactions: TransactionListing[]; unknownStates: string[] } {
    const unknownStates = filters.states.filter((state) => !STATE_NAMES.includes(state as TransactionStateName));
    const states = new Set(filters.states);
    const producerIds = new Set(filters.producerIds);
    const pattern = !filters.idPattern ? null : new RegExp(`^(?:${filters.idPattern})$`);
    const now = Date.now();
    const transactions = [...this.transactions.values()]
      .filter((metadata) => states.size === 0 || states.has(metadata.state))
      .filter((metadata) => producerIds.size === 0 || producerIds.has(metadata.producerId))
      .filter((metadata) => filters.minDurationMs < 0 || (metadata.startMs >= 0 && now - metadata.startMs > filters.minDurationMs))
      .filter((metadata) => pattern === null || pattern.test(metadata.transactionalId))
      .map(({ transactionalId, producerId, state }) => ({ transactionalId, producerId, state }));
    return { transactions, unknownStates };
  }

  /** Whether `topic` is one the coordinator keeps to itself (clients may read it, not write it). */
  static isStateTopic(topic: string): boolean {
    return topic === TRANSACTION_STATE_TOPIC;
  }

  /** A change of the producer's transaction, made durable; `change` answers null when there is nothing to change. */
  private change(producer: TransactionalProducer, change: (metadata: TransactionMetadata) => TransactionMetadata | null): Promise<ErrorCodeValue> {
    return this.run(producer.transactionalId, async () => {
      const metadata = this.producersTransaction(producer);
      if (metadata.state === "PrepareCommit" || metadata.state === "PrepareAbort") throw new Refusal(ErrorCode.CONCURRENT_TRANSACTIONS);
      const next = change(metadata);
      if (next !== null) await this.save(next);
      return ErrorCode.NONE;
    }).catch((error: unknown) => this.codeOf(error));
  }

  /** The producer's transaction, or a Refusal: an id it was not given, or an epoch since fenced. */
  private producersTransaction(producer: TransactionalProducer): TransactionMetadata {
    const metadata = this.transactions.get(producer.transactionalId);
    if (metadata === undefined || metadata.producerId !== producer.producerId) throw new Refusal(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
    if (metadata.producerEpoch !== producer.producerEpoch) throw new Refusal(ErrorCode.PRODUCER_FENCED);
    return metadata;
  }

  /** `metadata` as the transaction it starts, or goes on with. */
  private started(metadata: TransactionMetadata): TransactionMetadata {
    const now = Date.now();
    if (metadata.state === "Ongoing") return { ...metadata, lastUpdateMs: now };
    return { ...metadata, state: "Ongoing", partitions: new Map(), groups: new Map(), startMs: now, lastUpdateMs: now };
  }

  private created(transactionalId: string, producerId: bigint, timeoutMs: number): TransactionMetadata {
    return { transactionalId, producerId, producerEpoch: -1, lastProducerEpoch: -1, timeoutMs, state: "Empty", partitions: new Map(), groups: new Map(), startMs: -1, lastUpdateMs: Date.now() };
  }

  /** The id's state after InitProducerId: its epoch bumped (a new producer id once epochs run out), or a retry's answer again. */
  private async bumped(metadata: TransactionMetadata, timeoutMs: number, current: ProducerIdAndEpoch | null, allocateProducerId: () => Promise<bigint>): Promise<TransactionMetadata> {
    const reset = { ...metadata, timeoutMs, state: "Empty" as const, partitions: new Map(), groups: new Map(), startMs: -1, lastUpdateMs: Date.now() };
    if (isEpochExhausted(metadata.producerEpoch) && (current === null || current.producerEpoch === metadata.producerEpoch)) {
      return { ...reset, producerId: await allocateProducerId(), producerEpoch: 0, lastProducerEpoch: current === null ? -1 : metadata.producerEpoch };
    }
    if (current === null) return { ...reset, producerEpoch: metadata.producerEpoch + 1, lastProducerEpoch: -1 };
    if (metadata.producerEpoch === -1 || current.producerEpoch === metadata.producerEpoch) return { ...reset, producerEpoch: metadata.producerEpoch + 1, lastProducerEpoch: metadata.producerEpoch };
    // A retry of a bump whose answer the producer did not get.
    if (current.producerEpoch === metadata.lastProducerEpoch) return reset;
    throw new Refusal(ErrorCode.PRODUCER_FENCED);
  }

  /**
   * Aborts an open transaction under a bumped epoch: its producer, still at the old one, is fenced in every
   * partition it wrote to (by the markers) and at the coordinator.
   */
  private async abortFenced(metadata: TransactionMetadata, reason: string): Promise<void> {
    const epoch = metadata.producerEpoch < MAX_PRODUCER_EPOCH ? metadata.producerEpoch + 1 : metadata.producerEpoch;
    const aborting: TransactionMetadata = { ...metadata, producerEpoch: epoch, lastProducerEpoch: -1, state: "PrepareAbort", lastUpdateMs: Date.now() };
    this.logger.info("aborting a transaction and fencing its producer", { transactionalId: metadata.transactionalId, reason, producerId: String(metadata.producerId), producerEpoch: epoch });
    await this.save(aborting);
    await this.complete(aborting);
  }

  /**
   * Writes the markers (and on commit the offsets) of a transaction whose decision is durable, then its completion.
   * A failure leaves it prepared: the next sweep tries again.
   */
  private async complete(prepared: TransactionMetadata): Promise<void> {
    const committed = prepared.state === "PrepareCommit";
    try {
      await writeMarkers(this.options.store, prepared, committed);
      if (committed) await commitGroupOffsets(this.options.store, prepared);
      await this.save({ ...prepared, state: committed ? "CompleteCommit" : "CompleteAbort", partitions: new Map(), groups: new Map(), lastUpdateMs: Date.now() });
    } catch (error) {
      this.logger.error("ending a transaction failed; it is retried", { transactionalId: prepared.transactionalId, committed, error: String(error) });
    }
  }

  private async save(metadata: TransactionMetadata): Promise<void> {
    await this.log.write(metadata.transactionalId, metadata);
    this.transactions.set(metadata.transactionalId, metadata);
  }

  /** Runs `operation` on the id alone; another operation on it meanwhile is refused CONCURRENT_TRANSACTIONS. */
  private async run<T>(transactionalId: string, operation: () => Promise<T>): Promise<T> {
    if (this.closed) throw new Refusal(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    if (this.busy.has(transactionalId)) throw new Refusal(ErrorCode.CONCURRENT_TRANSACTIONS);
    this.busy.add(transactionalId);
    try {
      return await operation();
    } finally {
      this.busy.delete(transactionalId);
    }
  }

  private codeOf(error: unknown): ErrorCodeValue {
    if (error instanceof Refusal) return error.errorCode;
    this.logger.error("transaction coordinator failed", { error: String(error) });
    return ErrorCode.COORDINATOR_NOT_AVAILABLE;
  }

  /** Aborts timed-out transactions, finishes prepared ones a failure left, and forgets expired ids. */
  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweepAll();
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepAll(): Promise<void> {
    for (const transactionalId of [...this.transactions.keys()]) {
      // Read afresh: the sweep's own awaits let requests change ids it has not reached yet.
      const metadata = this.transactions.get(transactionalId);
      if (this.closed) return;
      if (metadata === undefined || this.busy.has(transactionalId)) continue;
      const task = this.sweepTask(metadata, Date.now());
      if (task !== undefined) await this.run(transactionalId, task).catch((error: unknown) => this.codeOf(error));
    }
  }

  private sweepTask(metadata: TransactionMetadata, now: number): (() => Promise<void>) | undefined {
    if (metadata.state === "Ongoing" && now - metadata.startMs > metadata.timeoutMs) {
      return () => this.abortFenced(metadata, `its producer stayed silent past its transaction timeout (${metadata.timeoutMs} ms)`);
    }
    if (metadata.state === "PrepareCommit" || metadata.state === "PrepareAbort") return () => this.complete(metadata);
    if ((metadata.state === "Empty" || metadata.state === "CompleteCommit" || metadata.state === "CompleteAbort") && now - metadata.lastUpdateMs > this.settings.idExpirationMs) {
      return async () => {
        await this.log.write(metadata.transactionalId, null);
        this.transactions.delete(metadata.transactionalId);
        this.logger.debug("transactional id expired", { transactionalId: metadata.transactionalId });
      };
    }
    return undefined;
  }
}
