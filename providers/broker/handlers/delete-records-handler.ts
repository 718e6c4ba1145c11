import { ErrorCode } from "../../kafka-protocol/error-codes";
import { DeleteRecords } from "../../kafka-protocol/messages/delete-records";
import type { ResponseOf } from "../../kafka-protocol/schema";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

type PartitionResult = ResponseOf<typeof DeleteRecords>["topics"][number]["partitions"][number];

/** Kafka's DeleteRecordsRequest.HIGH_WATERMARK: delete every record there is. */
const HIGH_WATERMARK = -1n;

/** Moves each partition's log start offset; the records before it are no longer read, and whole segments of them go. */
export function deleteRecordsHandler({ store, logger }: BrokerServices): RegisteredHandler {
  const deleteBefore = async (topic: string, partitionIndex: number, offset: bigint): Promise<PartitionResult> => {
    const log = store.partition(topic, partitionIndex);
    if (!log) return { partitionIndex, lowWatermark: -1n, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION };
    try {
      const lowWatermark = await log.deleteRecordsBefore(offset === HIGH_WATERMARK ? log.logEndOffset() : offset);
      return { partitionIndex, lowWatermark, errorCode: ErrorCode.NONE };
    } catch (error) {
      return { partitionIndex, lowWatermark: -1n, errorCode: errorCodeOf(error, logger, `deleting records of ${topic}-${partitionIndex}`) };
    }
  };

  return defineHandler(DeleteRecords, async (request) => ({
    topics: await Promise.all(
      request.topics.map(async ({ name, partitions }) => ({
        name,
        partitions: await Promise.all(partitions.map(({ partitionIndex, offset }) => deleteBefore(name, partitionIndex, offset))),
      })),
    ),
  }));
}
