/**
 * Restores task stores from their changelog topics: reads each changelog partition from the store's
 * checkpoint to the log end and applies it batch by batch.
 */
import { PartitionFetcher, type FetchedBatch, type PartitionError } from "../../kafka-client";
import type { ComponentLogger } from "../../../kernel/logger";
import type { RestoreRecord, TaskState } from "../state/task-state";

export interface RestoreTarget {
  state: TaskState;
  store: string;
  topic: string;
  partition: number;
  /** First changelog offset to apply. */
  from: number;
  /** Log end offset: restoring is done once every offset below it is applied. */
  to: number;
  /** Updated as batches are applied. */
  restored: RestoreProgress;
}

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
 * after `from` (its head removed by retention) is read from its start, with a warning.
 */
export async function restoreFromChangelogs(bootstrapServers: readonly string[], clientId: string, applicationId: string, targets: RestoreTarget[], logger: ComponentLogger): Promise<void> {
  let pending = targets.filter((target) => target.from < target.to);
  if (pending.length === 0) return;
  const startedAt = Date.now();
  for (const target of pending) Object.assign(target.restored, { records: 0, startedAt, endedAt: undefined });
  const byPartition = new Map(pending.map((target) => [`${target.topic}:${target.partition}`, target]));
  const fetcher = new PartitionFetcher({ bootstrapServers, clientId, maxWaitMs: 100 });
  let reported = startedAt;
  try {
    await fetcher.metadata.refresh(new Set(pending.map((target) => target.topic)));
    while (pending.length > 0) {
      const answer = await fetcher.fetch(pending.map((target) => ({ topic: target.topic, partition: target.partition, offset: target.from })));
      if (answer.errors.length > 0) await recover(fetcher, answer.errors, byPartition, logger);
      for (const batch of answer.batches) {
        const target = byPartition.get(`${batch.topic}:${batch.partition}`);
        if (target !== undefined) await apply(target, batch);
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

async function apply(target: RestoreTarget, batch: FetchedBatch): Promise<void> {
  const records: RestoreRecord[] = [];
  const { records: fetched } = batch;
  for (let record = fetched.read(); record !== undefined && record.offset < target.to; record = fetched.read()) {
    if (record.key !== null) records.push({ key: record.key, value: record.value, timestamp: record.timestamp });
  }
  const last = Math.min(batch.nextOffset, target.to) - 1;
  if (last < target.from) return;
  await target.state.restoreBatch(target.store, records, String(last));
  target.restored.records += records.length;
  target.from = last + 1;
  if (target.from >= target.to) target.restored.endedAt = Date.now();
}

async function recover(fetcher: PartitionFetcher, errors: PartitionError[], targets: Map<string, RestoreTarget>, logger: ComponentLogger): Promise<void> {
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 100));
  for (const { topic, partition, offset } of await fetcher.recover(errors, "restoring from", pause)) {
    const target = targets.get(`${topic}:${partition}`)!;
    if (offset <= target.from) throw new Error(`restoring from ${topic} partition ${partition}: offset ${target.from} is out of range, yet the log starts at ${offset}`);
    logger.warn("changelog starts after the store's checkpoint: records before it are gone", { topic, partition, checkpoint: target.from, start: offset });
    target.from = offset;
  }
}
