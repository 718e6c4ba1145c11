import { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { Fetch } from "../../kafka-protocol/messages/fetch";
import type { RequestOf, ResponseOf } from "../../kafka-protocol/schema";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";
import type { PartitionLog } from "../storage/log-store";

type FetchRequest = RequestOf<typeof Fetch>;

const READ_COMMITTED = 1;

/** The aborted transactions a read_committed reader of [from, stable) must skip the records of. */
function abortedIn(log: PartitionLog, from: bigint, stable: bigint): { producerId: bigint; firstOffset: bigint }[] {
  return log.abortedTransactions(from, stable).map(({ producerId, firstOffset }) => ({ producerId, firstOffset: BigInt(firstOffset) }));
}
type TopicResponse = ResponseOf<typeof Fetch>["responses"][number];
type PartitionResponse = TopicResponse["partitions"][number];

interface FetchRound {
  responses: TopicResponse[];
  bytes: number;
  failed: boolean;
}

/**
 * Reads whole batches within max_bytes and each partition's max bytes (only the first non-empty partition
 * may exceed them, with its first batch, so a client always makes progress), and long-polls until
 * min_bytes are there or max_wait_ms has passed. A read_committed fetch reads below the last stable offset only
 * (records of transactions still open stay unread), and is told which aborted transactions to skip.
 */
export function fetchHandler({ store, appends, logger }: BrokerServices): RegisteredHandler {
  const readPartition = async (
    topic: string,
    { partition, fetchOffset, partitionMaxBytes }: FetchRequest["topics"][number]["partitions"][number],
    budget: { left: number; first: boolean },
    readCommitted: boolean,
  ): Promise<PartitionResponse> => {
    const log = store.partition(topic, partition);
    const stable = log ? log.lastStableOffset() : -1n;
    const answer = (errorCode: PartitionResponse["errorCode"], records: ChunkedBytes): PartitionResponse => ({
      partitionIndex: partition,
      errorCode,
      highWatermark: log ? log.logEndOffset() : -1n,
      lastStableOffset: stable,
      logStartOffset: log ? log.logStartOffset() : -1n,
      abortedTransactions: log && readCommitted && records.length > 0 ? abortedIn(log, fetchOffset, stable) : null,
      records,
    });
    if (!log) return answer(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ChunkedBytes.EMPTY);
    if (fetchOffset < log.logStartOffset() || fetchOffset > log.logEndOffset()) return answer(ErrorCode.OFFSET_OUT_OF_RANGE, ChunkedBytes.EMPTY);
    const limit = Math.min(partitionMaxBytes, budget.left);
    const end = readCommitted ? stable : log.logEndOffset();
    if (fetchOffset >= end || (limit <= 0 && !budget.first)) return answer(ErrorCode.NONE, ChunkedBytes.EMPTY);
    try {
      const records = await log.read(fetchOffset, Math.max(limit, 0), readCommitted ? stable : undefined);
      if (records.length > limit && !budget.first) return answer(ErrorCode.NONE, ChunkedBytes.EMPTY);
      if (records.length > 0) budget.first = false;
      budget.left -= records.length;
      return answer(ErrorCode.NONE, records);
    } catch (error) {
      return answer(errorCodeOf(error, logger, `reading ${topic}-${partition}`), ChunkedBytes.EMPTY);
    }
  };

  const readAll = async (request: FetchRequest): Promise<FetchRound> => {
    const budget = { left: request.maxBytes, first: true };
    const responses: TopicResponse[] = [];
    let bytes = 0;
    let failed = false;
    // In order, because each partition's share depends on what the ones before it took.
    for (const { topic, partitions } of request.topics) {
      const answered: PartitionResponse[] = [];
      for (const partition of partitions) {
        const response = await readPartition(topic, partition, budget, request.isolationLevel === READ_COMMITTED);
        bytes += response.records?.length ?? 0;
        failed ||= response.errorCode !== ErrorCode.NONE;
        answered.push(response);
      }
      responses.push({ topic, partitions: answered });
    }
    return { responses, bytes, failed };
  };

  return defineHandler(Fetch, async (request) => {
    const deadline = Date.now() + Math.max(0, request.maxWaitMs);
    const watched = request.topics.flatMap(({ topic, partitions }) => partitions.map(({ partition }) => ({ topic, partition })));
    for (;;) {
      const watch = appends.watch(watched);
      const round = await readAll(request);
      if (round.bytes >= request.minBytes || round.failed || Date.now() >= deadline || appends.closed) {
        watch.cancel();
        return { responses: round.responses };
      }
      await watch.until(deadline);
      if (appends.closed) return { responses: round.responses };
    }
  });
}
