/**
 * Restores task stores from their changelog topics: reads each changelog partition from the store's
 * checkpoint to the log end and applies it batch by batch. kafkajs has no manual assignment, so a
 * short-lived consumer in a private group gets exactly these partitions from a fixed assignor.
 */
import { randomUUID } from "crypto";
import type { Admin, Kafka } from "kafkajs";
import type { ComponentLogger } from "../../../kernel/logger";
import type { TaskState } from "../state/task-state";
import { fixedAssignor } from "./streams-assignor";

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

export async function restoreFromChangelogs(kafka: Kafka, admin: Admin, applicationId: string, targets: RestoreTarget[], logger: ComponentLogger): Promise<void> {
  const pending = targets.filter((target) => target.from < target.to);
  if (pending.length === 0) return;
  const startedAt = Date.now();
  for (const target of pending) Object.assign(target.restored, { records: 0, startedAt, endedAt: undefined });
  const groupId = `${applicationId}-restore-${randomUUID()}`;
  const byPartition = new Map(pending.map((target) => [`${target.topic}:${target.partition}`, target]));
  const partitions: Record<string, number[]> = {};
  for (const target of pending) (partitions[target.topic] ??= []).push(target.partition);
  const consumer = kafka.consumer({ groupId, partitionAssigners: [fixedAssignor(partitions)], maxWaitTimeInMs: 100 });
  let remaining = pending.length;
  let finish!: () => void;
  let fail!: (error: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) fail(payload.error);
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: Object.keys(partitions), fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const target = byPartition.get(`${batch.topic}:${batch.partition}`);
        if (!target || target.from >= target.to) return;
        const records = batch.messages
          .filter((message) => Number(message.offset) >= target.from && Number(message.offset) < target.to && message.key)
          .map((message) => ({ key: message.key!, value: message.value, timestamp: Number(message.timestamp) }));
        const last = Math.min(Number(batch.lastOffset()), target.to - 1);
        if (last < target.from) return;
        await target.state.restoreBatch(target.store, records, String(last));
        target.restored.records += records.length;
        target.from = last + 1;
        if (target.from < target.to) return;
        target.restored.endedAt = Date.now();
        if (--remaining === 0) finish();
      },
    });
    for (const target of pending) consumer.seek({ topic: target.topic, partition: target.partition, offset: String(target.from) });
    await done;
    logger.debug("stores restored", { applicationId, partitions: pending.length });
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.deleteGroups([groupId]).catch(() => undefined);
  }
}
