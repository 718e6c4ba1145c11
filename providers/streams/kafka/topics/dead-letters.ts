/**
 * Dead letters (`processing.error.policy=dead_letter`): a record that fails deserialization or processing is
 * written, key, value and headers as consumed, to `dead.letter.topic` (default `<application.id>-dlq`) with headers
 * of its own after those, naming the error and where the record came from, and processing goes on. A dead letter leaves with its batch's other outputs,
 * before the batch commits.
 *
 * Exactly once, also across a crash: a batch processed again after a crash meets its bad records again. Each task
 * keeps, among its committed positions, where the dead-letter topic stood after its last dead letter
 * (`dlq:<topic>:<partition>`); when the task opens, the topic's tail from there tells which of its input records are
 * dead letters already, and those are not written twice.
 */
import { PartitionFetcher, type KafkaEndpoint } from "../../../kafka-client";
import type { StreamsSettings } from "../../streams-config";
import type { ErrorPhase, FailedRecord, OutputRecord } from "../../engine/stream-task";
import type { TopicEnds } from "./topic-ends";
import { HIDDEN_HEADER_NAME } from "../../processor/hidden-headers";

export const DEAD_LETTER_HEADERS = {
  error: "sluice.dlq.error",
  errorClass: "sluice.dlq.error.class",
  phase: "sluice.dlq.phase",
  application: "sluice.dlq.application.id",
  task: "sluice.dlq.task.id",
  topic: "sluice.dlq.topic",
  partition: "sluice.dlq.partition",
  offset: "sluice.dlq.offset",
} as const;

export function deadLetterTopic(settings: StreamsSettings, applicationId: string): string {
  return settings.get("dead.letter.topic") || `${applicationId}-dlq`;
}

/** A run's dead-letter topic: the dead letters of one input partition all go to one of its partitions. */
export class DeadLetterTopic {
  constructor(
    readonly name: string,
    private readonly partitionCount: () => number | undefined,
  ) {}

  partitionOf(inputPartition: number): number {
    return inputPartition % Math.max(1, this.partitionCount() ?? 1);
  }
}

/** The dead letter of a failed record, for `partition` of the dead-letter topic. */
export function deadLetterRecord(topic: string, partition: number, failed: FailedRecord, error: unknown, phase: ErrorPhase, applicationId: string, taskId: string): OutputRecord {
  const { record } = failed;
  return {
    topic,
    partition,
    key: record.key,
    value: record.value,
    timestamp: record.timestamp,
    headerList: "bytes" in record ? record.headerEntries(HIDDEN_HEADER_NAME) : record.headers,
    headers: {
      [DEAD_LETTER_HEADERS.error]: error instanceof Error ? error.message : String(error),
      [DEAD_LETTER_HEADERS.errorClass]: error instanceof Error ? error.name : typeof error,
      [DEAD_LETTER_HEADERS.phase]: phase,
      [DEAD_LETTER_HEADERS.application]: applicationId,
      [DEAD_LETTER_HEADERS.task]: taskId,
      [DEAD_LETTER_HEADERS.topic]: failed.topic,
      [DEAD_LETTER_HEADERS.partition]: String(failed.partition),
      [DEAD_LETTER_HEADERS.offset]: String(record.offset),
    },
  };
}

/** `<topic>:<partition>:<offset>` of an input record. */
export const inputRecordKey = (topic: string, partition: number, offset: number) => `${topic}:${partition}:${offset}`;

/**
 * The input records of `taskId` that are dead letters already: those the topic holds from `from` (per partition of
 * the dead-letter topic) to its end.
 */
export async function deadLettersOf(endpoint: KafkaEndpoint, clientId: string, ends: TopicEnds, topic: string, from: Map<number, number>, taskId: string): Promise<Set<string>> {
  const found = new Set<string>();
  const pending: { partition: number; offset: number; end: number }[] = [];
  for (const [partition, offset] of from) {
    const end = (await ends.of(topic, partition))?.high ?? 0;
    if (offset < end) pending.push({ partition, offset, end });
  }
  if (pending.length === 0) return found;
  const fetcher = new PartitionFetcher({ ...endpoint, clientId, maxWaitMs: 100 });
  try {
    while (pending.length > 0) {
      const answer = await fetcher.fetch(pending.map(({ partition, offset }) => ({ topic, partition, offset })));
      for (const { partition, offset } of await fetcher.recover(answer.errors, "reading the dead letters of")) pending.find((entry) => entry.partition === partition)!.offset = offset;
      for (const batch of answer.batches) {
        const range = pending.find((entry) => entry.partition === batch.partition)!;
        for (let record = batch.records.read(); record !== undefined && record.offset < range.end; record = batch.records.read()) {
          const header = (name: string) => record.headers?.[name]?.toString();
          if (header(DEAD_LETTER_HEADERS.task) !== taskId) continue;
          found.add(inputRecordKey(header(DEAD_LETTER_HEADERS.topic) ?? "", Number(header(DEAD_LETTER_HEADERS.partition)), Number(header(DEAD_LETTER_HEADERS.offset))));
        }
        range.offset = Math.max(range.offset, batch.nextOffset);
      }
      for (let i = pending.length - 1; i >= 0; i--) if (pending[i].offset >= pending[i].end) pending.splice(i, 1);
    }
  } finally {
    fetcher.close();
  }
  return found;
}
