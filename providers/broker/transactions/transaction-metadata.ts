/**
 * What the coordinator knows of one transactional id, as Kafka's TransactionMetadata: the producer id and epoch it
 * hands out, its transaction's state, partitions and group offsets, and when it started. Values are immutable: a
 * change makes a new one, which counts once it is written to the transaction log.
 */

/** Kafka's transaction states, by the ids its transaction log writes (and the names DescribeTransactions shows). */
export const TransactionState = {
  Empty: 0,
  Ongoing: 1,
  PrepareCommit: 2,
  PrepareAbort: 3,
  CompleteCommit: 4,
  CompleteAbort: 5,
  Dead: 6,
  PrepareEpochFence: 7,
} as const;

export type TransactionStateName = keyof typeof TransactionState;

export const STATE_NAMES = Object.keys(TransactionState) as TransactionStateName[];

export function stateNamed(id: number): TransactionStateName {
  const name = STATE_NAMES.find((state) => TransactionState[state] === id);
  if (name === undefined) throw new Error(`unknown transaction state id ${id}`);
  return name;
}

export interface PendingOffset {
  offset: bigint;
  metadata: string | null;
}

/** A group's offsets committed within the transaction: topic → partition → offset. */
export type GroupOffsets = ReadonlyMap<string, ReadonlyMap<number, PendingOffset>>;

export interface TransactionMetadata {
  readonly transactionalId: string;
  readonly producerId: bigint;
  /** -1 before the first InitProducerId was answered. */
  readonly producerEpoch: number;
  /** The epoch before the last bump a producer asked for, so its retry gets the same answer (KIP-360); -1 when none. */
  readonly lastProducerEpoch: number;
  readonly timeoutMs: number;
  readonly state: TransactionStateName;
  /** The transaction's partitions: topic → partition indexes. */
  readonly partitions: ReadonlyMap<string, ReadonlySet<number>>;
  /** The groups whose offsets the transaction commits (AddOffsetsToTxn), with those committed so far (TxnOffsetCommit). */
  readonly groups: ReadonlyMap<string, GroupOffsets>;
  /** When the transaction started (its first partition or group); -1 with none open. */
  readonly startMs: number;
  readonly lastUpdateMs: number;
}

/** Kafka never hands out Short.MAX_VALUE, so a coordinator can always fence the epoch it gave. */
export const MAX_PRODUCER_EPOCH = 32_767;

export function isEpochExhausted(epoch: number): boolean {
  return epoch >= MAX_PRODUCER_EPOCH - 1;
}

/** Whether the transaction already holds every partition of `added`. */
export function holdsPartitions(metadata: TransactionMetadata, added: ReadonlyMap<string, readonly number[]>): boolean {
  for (const [topic, partitions] of added) {
    const held = metadata.partitions.get(topic);
    if (held === undefined || partitions.some((partition) => !held.has(partition))) return false;
  }
  return true;
}

export function withPartitions(partitions: TransactionMetadata["partitions"], added: ReadonlyMap<string, readonly number[]>): Map<string, ReadonlySet<number>> {
  const merged = new Map(partitions);
  for (const [topic, list] of added) merged.set(topic, new Set([...(merged.get(topic) ?? []), ...list]));
  return merged;
}

export function withGroupOffsets(groups: TransactionMetadata["groups"], groupId: string, offsets: ReadonlyMap<string, ReadonlyMap<number, PendingOffset>>): Map<string, GroupOffsets> {
  const merged = new Map(groups);
  const topics = new Map(merged.get(groupId) ?? []);
  for (const [topic, partitions] of offsets) topics.set(topic, new Map([...(topics.get(topic) ?? []), ...partitions]));
  merged.set(groupId, topics);
  return merged;
}

/** Whether a transaction is under way in this state (started, not yet complete). */
export function isOpen(state: TransactionStateName): boolean {
  return state === "Ongoing" || state === "PrepareCommit" || state === "PrepareAbort";
}
