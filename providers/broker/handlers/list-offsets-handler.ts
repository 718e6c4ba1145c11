import { ErrorCode } from "../../kafka-protocol/error-codes";
import { ListOffsets } from "../../kafka-protocol/messages/list-offsets";
import type { ResponseOf } from "../../kafka-protocol/schema";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

type PartitionResponse = ResponseOf<typeof ListOffsets>["topics"][number]["partitions"][number];

const LATEST = -1n;
const EARLIEST = -2n;
const MAX_TIMESTAMP = -3n;
/** The earliest offset kept on the broker's own disk: the log start, as nothing here goes to tiered storage. */
const EARLIEST_LOCAL = -4n;
/** read_committed: the latest offset is the last stable one. */
const READ_COMMITTED = 1;

export function listOffsetsHandler({ store, logger }: BrokerServices): RegisteredHandler {
  const lookUp = async (topic: string, partitionIndex: number, timestamp: bigint, isolationLevel: number): Promise<PartitionResponse> => {
    const found = (offset: bigint, at: bigint): PartitionResponse => ({
      partitionIndex,
      errorCode: ErrorCode.NONE,
      oldStyleOffsets: [offset],
      timestamp: at,
      offset,
    });
    const missing = (errorCode: PartitionResponse["errorCode"]): PartitionResponse => ({
      partitionIndex,
      errorCode,
      oldStyleOffsets: [],
      timestamp: -1n,
      offset: -1n,
    });
    const log = store.partition(topic, partitionIndex);
    if (!log) return missing(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    if (timestamp === LATEST) return found(isolationLevel === READ_COMMITTED ? log.lastStableOffset() : log.logEndOffset(), -1n);
    if (timestamp === EARLIEST || timestamp === EARLIEST_LOCAL) return found(log.logStartOffset(), -1n);
    try {
      const match = await (timestamp === MAX_TIMESTAMP ? log.recordWithMaxTimestamp() : log.offsetForTimestamp(timestamp));
      return match ? found(match.offset, match.timestamp) : missing(ErrorCode.NONE);
    } catch (error) {
      return missing(errorCodeOf(error, logger, `looking up ${topic}-${partitionIndex} by timestamp`));
    }
  };

  return defineHandler(ListOffsets, async (request) => ({
    topics: await Promise.all(
      request.topics.map(async ({ name, partitions }) => ({
        name,
        partitions: await Promise.all(partitions.map(({ partitionIndex, timestamp }) => lookUp(name, partitionIndex, timestamp, request.isolationLevel))),
      })),
    ),
  }));
}
