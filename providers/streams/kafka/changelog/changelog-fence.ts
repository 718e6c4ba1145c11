/**
 * Changelog fences: who may write a task's changelog partition. Sluice writes no transactions, so a member cut off
 * from its group (starved, paused, partitioned) can go on processing a task another member has taken over: a
 * zombie. Its late changelog writes would land among the new owner's, and a later restore would take them as the
 * last word on their keys, against positions that say their input was counted since: counts would come out low.
 *
 * So a member that opens a task first writes a fence to each of its changelog partitions and restores up to that
 * fence: whatever any earlier owner wrote before it is in the restored state. From a fence on, a restore applies only
 * the records of the producer that wrote it, until the next fence: a zombie's writes after the new owner's fence are
 * left out. Writers are told apart by the producer id of their batches (so fencing needs enable.idempotence, the
 * default). The log's order alone decides, not group generations (a broker that lost its groups counts them from 0
 * again): a zombie's late fence takes the partition over too, but its writer restored everything before it first.
 *
 * A writer learns it was fenced off at its next commit: its changelog records did not land right after its previous
 * ones, so another writer came between; it commits nothing locally and joins the group again (checkChangelogLanded).
 * So a commit is committed locally, and its input offsets in the group, only if every restore will apply it.
 */
import { MembershipLostError, type PartitionOffsets } from "../../../kafka-client";
import type { OutputRecord } from "../../engine/stream-task";

export const FENCE_HEADER = "sluice.fence";

/**
 * The fence of `member`, assigned the task in group generation `generation` (both named for whoever reads the
 * changelog). Its key is its own (no store writes it: it starts with a zero byte), so a compacted changelog keeps
 * every fence; its value is not null, so compaction does not drop it as a tombstone.
 */
export function fenceRecord(topic: string, partition: number, generation: number, member: string): OutputRecord {
  const fence = `${member} in generation ${generation}`;
  return { topic, partition, key: `\u0000${FENCE_HEADER}:${fence}`, value: fence, timestamp: Date.now(), headers: { [FENCE_HEADER]: fence } };
}

/** A checkpoint's form of a writer (a producer id). */
export function encodeWriter(producerId: bigint): string {
  return String(producerId);
}

export function decodeWriter(persisted: string | undefined): bigint | undefined {
  return persisted !== undefined && /^-?\d+$/.test(persisted) ? BigInt(persisted) : undefined;
}

/** Where a task expects its next changelog records of a store to land: right after its last ones. */
export interface ChangelogExpectation {
  taskId: string;
  store: string;
  /** The offset of the task's last changelog record (or of its fence). */
  lastOffset: number;
  /** How many records this send wrote there. */
  count: number;
  /** The producer id of the task's fence. */
  writer: bigint;
}

/**
 * Throws a MembershipLostError when a commit's changelog records did not land right after the task's previous ones,
 * or under another producer id than the task's fence: another member has fenced the partition since (this one is a
 * zombie), or the producer lost its identity midway (restores would leave these records out). Either way the task
 * must not commit them locally; joining again reopens it behind a new fence.
 */
export function checkChangelogLanded(expected: ChangelogExpectation, landed: PartitionOffsets): void {
  const { taskId, store, lastOffset, count, writer } = expected;
  const where = `task ${taskId}: its changelog ${landed.topic} partition ${landed.partition} (store ${store})`;
  if (landed.baseOffset !== lastOffset + 1 || landed.lastOffset !== lastOffset + count) {
    throw new MembershipLostError(`${where} was written by another member since offset ${lastOffset}: this commit landed at ${landed.baseOffset}–${landed.lastOffset}, ${count} records`);
  }
  if (landed.producerId !== writer) {
    throw new MembershipLostError(`${where} took this commit under producer id ${landed.producerId}, not ${writer} of the task's fence`);
  }
}
