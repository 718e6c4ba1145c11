/**
 * Opens one partition of the file store, `<dataDir>/<topic>-<partition>/<20-digit base offset>.log`:
 * rebuilds each segment's index, the idempotent producers' states and the open and aborted transactions by scanning it, verifies the CRCs of the
 * last (active) segment and truncates a torn tail away, logging what was cut; reads the log start offset
 * DeleteRecords left.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { RecordBatchHeader } from "../../kafka-protocol/records/record-batch";
import { FileLogStartCheckpoint } from "./log-start-checkpoint";
import type { TopicSettings } from "./log-store";
import { PositionalFile } from "./positional-file";
import { ProducerStates } from "./producer-states";
import { PartitionTransactions } from "./partition-transactions";
import { isTransactionalBatch } from "../../kafka-protocol/records/record-batch";
import { Segment } from "./segment";
import { scanSegment } from "./segment-recovery";
import type { SegmentStorageFactory } from "./segment-storage";
import { SegmentedPartitionLog, type PartitionLogContext } from "./segmented-partition-log";

const OFFSET_DIGITS = 20;

export function partitionDirName(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

export function segmentFileName(baseOffset: number): string {
  return `${String(baseOffset).padStart(OFFSET_DIGITS, "0")}.log`;
}

/** The base offset a segment file name encodes, or undefined for any other file. */
function parseSegmentFileName(name: string): number | undefined {
  const match = /^(\d{20})\.log$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

export function fileSegmentStorageFactory(partitionDir: string): SegmentStorageFactory {
  return { create: (baseOffset) => PositionalFile.open(path.join(partitionDir, segmentFileName(baseOffset))) };
}

export type FilePartitionContext = Omit<PartitionLogContext, "storageFactory" | "logStartCheckpoint">;

export async function openFilePartition(
  dataDir: string,
  topic: string,
  partition: number,
  settings: TopicSettings,
  context: FilePartitionContext,
): Promise<SegmentedPartitionLog> {
  const dir = path.join(dataDir, partitionDirName(topic, partition));
  await fs.mkdir(dir, { recursive: true });
  const logStartCheckpoint = new FileLogStartCheckpoint(dir);
  const logContext: PartitionLogContext = { ...context, storageFactory: fileSegmentStorageFactory(dir), logStartCheckpoint };
  const baseOffsets = (await fs.readdir(dir))
    .map(parseSegmentFileName)
    .filter((offset): offset is number => offset !== undefined)
    .sort((a, b) => a - b);
  if (baseOffsets.length === 0) return SegmentedPartitionLog.create(topic, partition, settings, logContext);
  const segments: Segment[] = [];
  const producers = new ProducerStates();
  const loadedAt = Date.now();
  const transactions = new PartitionTransactions();
  const restore = (header: RecordBatchHeader, controlType?: number) => {
    producers.restore(header, Number(header.baseOffset), loadedAt);
    transactions.track({ producerId: header.producerId, baseOffset: Number(header.baseOffset), transactional: isTransactionalBatch(header), controlType });
  };
  for (const [i, baseOffset] of baseOffsets.entries()) {
    segments.push(await openSegment(dir, baseOffset, i === baseOffsets.length - 1, context, restore));
  }
  const log = new SegmentedPartitionLog(topic, partition, settings, segments, logContext, await logStartCheckpoint.load(), producers, transactions);
  transactions.forgetBefore(Number(log.logStartOffset()));
  return log;
}

async function openSegment(
  dir: string,
  baseOffset: number,
  isActive: boolean,
  context: FilePartitionContext,
  onBatch: (header: RecordBatchHeader, controlType?: number) => void,
): Promise<Segment> {
  const file = await PositionalFile.open(path.join(dir, segmentFileName(baseOffset)));
  const fileSize = await file.fileSize();
  const scan = await scanSegment(file, baseOffset, isActive, onBatch);
  if (scan.problem !== undefined) {
    context.logger.warn("truncating torn or corrupt tail of log segment", {
      file: file.filePath,
      problem: scan.problem,
      validBytes: scan.validSize,
      discardedBytes: fileSize - scan.validSize,
      batchesKept: scan.index.count,
    });
    await file.truncate(scan.validSize);
  }
  return new Segment(baseOffset, file, scan.index, scan.validSize, await file.lastModifiedMs());
}
