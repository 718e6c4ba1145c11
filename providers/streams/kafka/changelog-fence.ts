/**
 * Changelog fences: who may write a task's changelog partition. Sluice writes no transactions, so a member cut off
 * from its group (starved, paused, partitioned) can go on processing a task another member has taken over: a
 * zombie. Its late changelog writes would land among the new owner's, and a later restore would take them as the
 * last word on their keys, against positions that say their input was counted since: counts would come out low.
 *
 * So a member that opens a task first writes a fence to each of its changelog partitions (the record's header names
 * the group generation the task was assigned in), and restores up to that fence: whatever any earlier owner wrote
 * before it is in the restored state. From a fence on, a restore applies only the records of the producer that wrote
 * it, until a fence of a later generation: a zombie's writes after the new owner's fence are left out. Writers are
 * told apart by the producer id of their batches (so fencing needs enable.idempotence, the default).
 *
 * The zombie learns of it at its next commit: its changelog records did not land right after its previous ones, so
 * another writer came between; it commits nothing locally and joins the group again (see checkChangelogLanded).
 */
import { MembershipLostError, type PartitionOffsets } from "../../kafka-client";
import type { OutputRecord } from "../engine/stream-task";

export const FENCE_HEADER = "sluice.fence";

/** The producer that wrote a changelog partition's last fence, and the generation the fence was written in. */
export interface ChangelogWriter {
  producerId: bigint;
  generation: number;
}

/**
 * The fence of `member` in `generation`. Its key is its own (no store writes it: it starts with a zero byte), so a
 * compacted changelog keeps every fence; its value is not null, so compaction does not drop it as a tombstone.
 */
export function fenceRecord(topic: string, partition: number, generation: number, member: string): OutputRecord {
  return { topic, partition, key: `\u0000${FENCE_HEADER}:${generation}:${member}`, value: String(generation), timestamp: Date.now(), headers: { [FENCE_HEADER]: String(generation) } };
}

/** The generation of a fence's header, or undefined for a record that is no fence. */
export function fenceGeneration(header: Buffer | null | undefined): number | undefined {
  if (header == null) return undefined;
  const generation = Number(header.toString("latin1"));
  return Number.isSafeInteger(generation) ? generation : undefined;
}

/** A checkpoint's form of a writer: `<producer id>/<generation>`. */
export function encodeWriter(writer: ChangelogWriter): string {
  return `${writer.producerId}/${writer.generation}`;
}

export function decodeWriter(persisted: string | undefined): ChangelogWriter | undefined {
  const match = persisted === undefined ? null : /^(-?\d+)\/(-?\d+)$/.exec(persisted);
  return match === null ? undefined : { producerId: BigInt(match[1]), generation: Number(match[2]) };
}

/**
 * Whether a fence of `producerId` in `generation` takes a partition over from `owner`: not when the owner's fence is
 * of a later generation (a zombie's late fence).
 */
export function takesOver(owner: ChangelogWriter | undefined, generation: number): boolean {
  return owner === undefined || generation >= owner.generation;
}

/** Where a task expects its next changelog records of a store to land: right after its last ones. */
export interface ChangelogExpectation {
  taskId: string;
  store: string;
  /** The offset of the task's last changelog record (or of its fence). */
  lastOffset: number;
  /** How many records this send wrote there. */
  count: number;
  writer: ChangelogWriter;
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
  if (landed.producerId !== writer.producerId) {
    throw new MembershipLostError(`${where} took this commit under producer id ${landed.producerId}, not ${writer.producerId} of the task's fence`);
  }
}
