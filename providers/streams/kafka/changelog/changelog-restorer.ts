/**
 * Restores task stores from their changelog topics: reads each changelog partition from the store's
 * checkpoint up to the restoring member's fence and applies it batch by batch, leaving out what writers fenced off
 * wrote (see changelog-fence). Under exactly_once_v2 the changelogs are written in transactions, up to their end when
 * the restore began: a transaction still open there (a crashed or cut-off member's) is waited for until it commits or
 * its coordinator aborts it, so every commit before the restore is in the restored state and no aborted one is.
 * Changelogs are always read read_committed: one an application wrote under both guarantees (switched from
 * exactly_once_v2 to at_least_once) holds transactions too, and under at_least_once each committed one is applied as
 * a whole, as a commit marker's records are.
 */
import { PartitionFetcher, type FetchedBatch, type KafkaEndpoint, type PartitionError } from "../../../kafka-client";
import type { ComponentLogger } from "../../../../kernel/logger";
import type { RestoreRecord, TaskState } from "../../state/task-state";
import { decodePositions, POSITIONS_HEADER } from "./commit-marker";
import { encodeWriter, FENCE_HEADER } from "./changelog-fence";
import { TopicPartitionMap } from "../topics/topic-partition";

export interface RestoreTarget {
  state: TaskState;
  store: string;
  topic: string;
  partition: number;
  /** First changelog offset to apply. */
  from: number;
  /** The restoring member's fence (or the log end): restoring is done once every offset below it is read. */
  to: number;
  /**
   * Under exactly_once_v2: fences (left by earlier at_least_once runs) are skipped rather than followed; transactions,
   * not fences, keep a cut-off member's writes out.
   */
  skipFences?: boolean;
  /** Updated as batches are applied. */
  restored: RestoreProgress;
  /**
   * Whether the changelog's commit markers are followed (a task with one store): records are applied up to the
   * last marker, and the task takes that marker's input positions (see commit-marker).
   */
  followMarkers: boolean;
  /** The last marker's positions once one has been applied. */
  positions?: Record<string, string>;
  /** Records read since their writer's last marker, held until its next one; dropped at the end (an unfinished commit). */
  held?: HeldRecord[];
  /** Under at_least_once: the producer whose transactional records (an exactly_once_v2 run's commits) are held now. */
  committedWriter?: bigint;
  /**
   * The producer id of the partition's owner: the checkpoint's, then that of each fence read. Once known, only its
   * records are applied; unknown (a changelog older than fences), every writer's are.
   */
  writer?: bigint;
  /**
   * A standby's round (see standby-tasks): records of an unfinished commit at the end are read again next round, from
   * the checkpoint, so leaving them is routine rather than news.
   */
  standby?: boolean;
}

interface HeldRecord extends RestoreRecord {
  /** The producer id of the record's batch. */
  writer: bigint;
}

/** Records held without any marker in sight: a changelog written before markers existed is applied as it comes. */
const MOST_HELD_WITHOUT_MARKER = 100_000;

/** Records applied and when the restoration started and ended (epoch ms), for the restore rate. */
export interface RestoreProgress {
  records: number;
  startedAt?: number;
  endedAt?: number;
}

/** Records per second of the current or last restoration; 0 before any. */
export function restoreRate(progress: RestoreProgress | undefined, now = Date.now()): number {
  if (progress?.startedAt === undefined) return 0;
  const seconds = ((progress.endedAt ?? now) - progress.startedAt) / 1000;
  return seconds > 0 ? progress.records / seconds : 0;
}

const PROGRESS_EVERY_MS = 5_000;

/**
 * Applies each target's changelog partition from its `from` offset up to its `to` (the log end when the
 * task opened), batch by batch, reading the partitions directly (no consumer group). A changelog that starts
 * after `from` (its head removed by retention) is read from its start, with a warning. `stopped`, asked between
 * fetches, ends the reading early (a standby's round when its member rebalances): what was applied stays applied.
 */
export async function restoreFromChangelogs(
  endpoint: KafkaEndpoint,
  clientId: string,
  applicationId: string,
  targets: RestoreTarget[],
  logger: ComponentLogger,
  stopped: () => boolean = () => false,
): Promise<void> {
  let pending = targets.filter((target) => target.from < target.to);
  if (pending.length === 0) return;
  const startedAt = Date.now();
  for (const target of pending) Object.assign(target.restored, { records: 0, startedAt, endedAt: undefined });
  const byPartition = new TopicPartitionMap<RestoreTarget>();
  for (const target of pending) byPartition.set(target.topic, target.partition, target);
  const fetcher = new PartitionFetcher({ ...endpoint, clientId, maxWaitMs: 100, isolationLevel: "read_committed", logger });
  let reported = startedAt;
  try {
    while (pending.length > 0 && !stopped()) {
      const answer = await fetcher.fetch(pending.map((target) => ({ topic: target.topic, partition: target.partition, offset: target.from })));
      await recover(fetcher, answer.errors, byPartition, logger);
      for (const batch of answer.batches) {
        const target = byPartition.get(batch.topic, batch.partition);
        if (target !== undefined) await apply(target, batch, logger);
      }
      pending = pending.filter((target) => target.from < target.to);
      if (Date.now() - reported >= PROGRESS_EVERY_MS) {
        reported = Date.now();
        const records = targets.reduce((sum, target) => sum + target.restored.records, 0);
        logger.info("restoring stores", { applicationId, records, partitionsLeft: pending.length });
      }
    }
    logger.debug("stores restored", { applicationId, partitions: byPartition.size, ms: Date.now() - startedAt });
  } finally {
    fetcher.close();
  }
}

async function apply(target: RestoreTarget, batch: FetchedBatch, logger: ComponentLogger): Promise<void> {
  const { records: fetched } = batch;
  for (let record = fetched.read(); record !== undefined && record.offset < target.to; record = fetched.read()) {
    if (record.offset < target.from) continue;
    const writer = fetched.producerId;
    if (target.committedWriter !== undefined && writer !== target.committedWriter) await applyCommitted(target, record.offset - 1);
    if (fetched.transactional && !target.skipFences) {
      holdCommitted(target, writer, record);
      continue;
    }
    const headers = record.headers;
    if (headers?.[FENCE_HEADER] !== undefined) {
      if (!target.skipFences) fence(target, writer);
      continue;
    }
    if (target.writer !== undefined && target.writer !== writer) continue;
    if (record.key !== null) (target.held ??= []).push({ key: record.key, value: record.value, timestamp: record.timestamp, writer });
    const positions = target.followMarkers ? decodePositions(headers?.[POSITIONS_HEADER]) : undefined;
    if (positions !== undefined) {
      target.positions = positions;
      await applyHeld(target, record.offset, writer);
    }
  }
  const last = Math.min(batch.nextOffset, target.to) - 1;
  if (last < target.from) return;
  if (target.committedWriter !== undefined) await applyCommitted(target, last);
  target.from = last + 1;
  const done = target.from >= target.to;
  const held = target.held?.length ?? 0;
  if (!target.followMarkers || (target.positions === undefined && (done || held > MOST_HELD_WITHOUT_MARKER))) {
    target.followMarkers = false;
    await applyHeld(target, last);
  } else if (done && held > 0) {
    if (!target.standby) logger.info("changelog records of an unfinished commit are not restored; their input is processed again", { store: target.store, partition: target.partition, records: held });
    target.held = [];
  }
  if (done) target.restored.endedAt = Date.now();
}

/**
 * Holds a record of an exactly_once_v2 run's transaction, read by an at_least_once restore: read read_committed, it
 * is committed, so it is applied with the rest of its writer's run (applyCommitted). Records an at_least_once writer
 * left unmarked before that run are a commit that never completed: they are dropped, as at a fence.
 */
function holdCommitted(target: RestoreTarget, writer: bigint, record: { key: Buffer | null; value: Buffer | null; timestamp: number }): void {
  if (target.committedWriter !== writer) {
    target.committedWriter = writer;
    target.held = [];
  }
  if (record.key !== null) target.held!.push({ key: record.key, value: record.value, timestamp: record.timestamp, writer });
}

/** Applies the held transactional records of `committedWriter`, up to changelog offset `lastOffset`. */
async function applyCommitted(target: RestoreTarget, lastOffset: number): Promise<void> {
  const writer = target.committedWriter!;
  target.committedWriter = undefined;
  await applyHeld(target, lastOffset, writer);
}

/**
 * A fence makes its writer the owner; the records held from others are dropped, as commits that never completed
 * before it (the restore of the member that wrote it ended there too).
 */
function fence(target: RestoreTarget, writer: bigint): void {
  target.writer = writer;
  if (target.held !== undefined) target.held = target.held.filter((record) => record.writer === writer);
}

/**
 * Applies the held records (those of `writer` only, when given: its marker's), recording `lastOffset` as the
 * store's changelog position, with the marker's positions and the partition's owner.
 */
async function applyHeld(target: RestoreTarget, lastOffset: number, writer?: bigint): Promise<void> {
  const records = takeHeld(target, writer);
  const owner = target.writer === undefined ? undefined : encodeWriter(target.writer);
  await target.state.restoreBatch(target.store, records, String(lastOffset), target.followMarkers ? target.positions : undefined, owner);
  target.restored.records += records.length;
}

/** Takes the held records of `writer` (all of them without one) out of `target.held`. */
function takeHeld(target: RestoreTarget, writer: bigint | undefined): HeldRecord[] {
  const held = target.held ?? [];
  target.held = [];
  // Once the owner is known, every record held is its own.
  if (writer === undefined || target.writer !== undefined) return held;
  const taken: HeldRecord[] = [];
  for (const record of held) (record.writer === writer ? taken : target.held).push(record);
  return taken;
}

/** Partitions whose leader is lost or moved are fetched again later, from where they were; the others go on. */
async function recover(fetcher: PartitionFetcher, errors: PartitionError[], targets: TopicPartitionMap<RestoreTarget>, logger: ComponentLogger): Promise<void> {
  for (const { topic, partition, offset } of await fetcher.recover(errors, "restoring from")) {
    const target = targets.get(topic, partition)!;
    if (offset <= target.from) throw new Error(`restoring from ${topic} partition ${partition}: offset ${target.from} is out of range, yet the log starts at ${offset}`);
    logger.warn("changelog starts after the store's checkpoint: records before it are gone", { topic, partition, checkpoint: target.from, start: offset });
    target.from = offset;
  }
}
