/**
 * The transaction coordinator's durable state: the `__transaction_state` topic (one partition; this broker is the
 * coordinator of every transactional id), created with the first transactional producer. Each change of an id's
 * state is one record keyed by the id; a restart reads the topic from its start, and the newest record of each key
 * wins. Compacted as Kafka compacts it: once the topic holds several times more records than there are ids, the
 * live states are written again and everything before them is deleted (DeleteRecords), so it stays near the size
 * of what it keeps.
 */
import { encodePlainBatch, readPlainRecords } from "../../kafka-protocol/records/plain-records";
import { BatchField, splitBatches } from "../../kafka-protocol/records/record-batch";
import type { ComponentLogger } from "../../../kernel/logger";
import type { LogStore, PartitionLog } from "../storage/log-store";
import { TRANSACTION_LOG_KEY, TRANSACTION_LOG_VALUE } from "./transaction-log-records";
import { stateNamed, TransactionState, type GroupOffsets, type TransactionMetadata } from "./transaction-metadata";

export const TRANSACTION_STATE_TOPIC = "__transaction_state";

/** Compaction waits for at least this many records, and for this many times more records than live ids. */
const MIN_RECORDS_BEFORE_COMPACTION = 1_000;
const GROWTH_BEFORE_COMPACTION = 4;
const READ_BYTES = 1024 * 1024;
const RECORDS_PER_BATCH = 500;

export class TransactionLog {
  /** The newest value written of each live id, as written: what compaction writes again. */
  private readonly live = new Map<string, Buffer>();
  private records = 0;
  /** Writes run one at a time, so compaction sees every write before it and none after. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: LogStore,
    private readonly logger: ComponentLogger,
  ) {}

  /** Every live id's state, read from the topic (none before the first transactional producer made it). */
  async load(): Promise<TransactionMetadata[]> {
    const log = this.store.partition(TRANSACTION_STATE_TOPIC, 0);
    if (log === undefined) return [];
    for (let offset = log.logStartOffset(); offset < log.logEndOffset(); ) {
      const batches = splitBatches(await log.read(offset, READ_BYTES));
      if (batches.length === 0) break;
      for (const batch of batches) {
        const bytes = batch.toBuffer();
        offset = bytes.readBigInt64BE(BatchField.baseOffset) + BigInt(bytes.readInt32BE(BatchField.lastOffsetDelta)) + 1n;
        this.takeIn(bytes);
      }
    }
    this.logger.debug("transaction log loaded", { records: this.records, transactionalIds: this.live.size });
    return [...this.live].map(([transactionalId, value]) => decodeMetadata(transactionalId, value));
  }

  /** Makes `metadata` the id's durable state; null forgets the id (a tombstone). */
  write(transactionalId: string, metadata: TransactionMetadata | null): Promise<void> {
    const run = this.tail.then(async () => {
      const value = metadata === null ? null : encodeMetadata(metadata);
      await (await this.topic()).append(encodePlainBatch([{ key: encodeKey(transactionalId), value }], { timestamp: Date.now() }));
      this.records++;
      if (value === null) this.live.delete(transactionalId);
      else this.live.set(transactionalId, value);
      if (this.records >= Math.max(MIN_RECORDS_BEFORE_COMPACTION, GROWTH_BEFORE_COMPACTION * this.live.size)) await this.compact();
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async compact(): Promise<void> {
    const log = await this.topic();
    const start = log.logEndOffset();
    const entries = [...this.live];
    for (let i = 0; i < entries.length; i += RECORDS_PER_BATCH) {
      const records = entries.slice(i, i + RECORDS_PER_BATCH).map(([transactionalId, value]) => ({ key: encodeKey(transactionalId), value }));
      await log.append(encodePlainBatch(records, { timestamp: Date.now() }));
    }
    await log.deleteRecordsBefore(start);
    this.logger.debug("transaction log compacted", { from: this.records, to: entries.length });
    this.records = entries.length;
  }

  /** The topic's partition, created compacted and kept forever when it does not exist yet. */
  private async topic(): Promise<PartitionLog> {
    const existing = this.store.partition(TRANSACTION_STATE_TOPIC, 0);
    if (existing !== undefined) return existing;
    await this.store.createTopic(TRANSACTION_STATE_TOPIC, { partitions: 1, retentionMs: null, retentionBytes: null, configs: { "cleanup.policy": "compact" } });
    return this.store.partition(TRANSACTION_STATE_TOPIC, 0)!;
  }

  /** One batch read at load: each record's value replaces its key's, a null one forgets it; a batch not written here is skipped. */
  private takeIn(batch: Buffer): void {
    let records;
    try {
      records = readPlainRecords(batch);
    } catch (error) {
      this.logger.warn("skipping a batch of the transaction log that this broker did not write", { error: String(error) });
      return;
    }
    for (const { key, value } of records) {
      if (key === null) continue;
      const transactionalId = TRANSACTION_LOG_KEY.decode(key).transactionalId;
      this.records++;
      if (value === null) this.live.delete(transactionalId);
      else this.live.set(transactionalId, Buffer.from(value));
    }
  }
}

function encodeKey(transactionalId: string): Buffer {
  return TRANSACTION_LOG_KEY.encode(0, { transactionalId });
}

function encodeMetadata(metadata: TransactionMetadata): Buffer {
  return TRANSACTION_LOG_VALUE.encode(0, {
    producerId: metadata.producerId,
    producerEpoch: metadata.producerEpoch,
    lastProducerEpoch: metadata.lastProducerEpoch,
    transactionTimeoutMs: metadata.timeoutMs,
    transactionStatus: TransactionState[metadata.state],
    transactionPartitions: [...metadata.partitions].map(([topic, partitions]) => ({ topic, partitionIds: [...partitions] })),
    transactionLastUpdateTimestampMs: BigInt(metadata.lastUpdateMs),
    transactionStartTimestampMs: BigInt(metadata.startMs),
    pendingOffsets: [...metadata.groups].map(([groupId, topics]) => ({
      groupId,
      topics: [...topics].map(([topic, partitions]) => ({
        topic,
        partitions: [...partitions].map(([partition, { offset, metadata: text }]) => ({ partition, offset, metadata: text })),
      })),
    })),
  });
}

function decodeMetadata(transactionalId: string, value: Buffer): TransactionMetadata {
  const decoded = TRANSACTION_LOG_VALUE.decode(value);
  const groups = new Map<string, GroupOffsets>(
    decoded.pendingOffsets.map(({ groupId, topics }) => [
      groupId,
      new Map(topics.map(({ topic, partitions }) => [topic, new Map(partitions.map(({ partition, offset, metadata }) => [partition, { offset, metadata }]))])),
    ]),
  );
  return {
    transactionalId,
    producerId: decoded.producerId,
    producerEpoch: decoded.producerEpoch,
    lastProducerEpoch: decoded.lastProducerEpoch,
    timeoutMs: decoded.transactionTimeoutMs,
    state: stateNamed(decoded.transactionStatus),
    partitions: new Map(decoded.transactionPartitions.map(({ topic, partitionIds }) => [topic, new Set(partitionIds)])),
    groups,
    startMs: Number(decoded.transactionStartTimestampMs),
    lastUpdateMs: Number(decoded.transactionLastUpdateTimestampMs),
  };
}
