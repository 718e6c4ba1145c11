import { ApiError, ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { Produce } from "../../kafka-protocol/messages/produce";
import type { RequestOf, ResponseOf } from "../../kafka-protocol/schema";
import { splitBatches } from "../../kafka-protocol/records/record-batch";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

type PartitionData = RequestOf<typeof Produce>["topicData"][number]["partitionData"][number];
type PartitionResponse = ResponseOf<typeof Produce>["responses"][number]["partitionResponses"][number];

const VALID_ACKS = new Set([0, 1, -1]);

/**
 * Appends each partition's batches as received. Every append is started before the first await, so
 * pipelined produce requests reach a partition in the order they arrived. acks=0 gets no response; on a
 * single node acks=1 and acks=all both mean "appended".
 */
export function produceHandler({ store, logger }: BrokerServices): RegisteredHandler {
  const failed = (index: number, errorCode: ErrorCodeValue, errorMessage: string | null = null): PartitionResponse => ({
    index,
    errorCode,
    baseOffset: -1n,
    errorMessage,
  });

  const append = (topic: string, { index, records }: PartitionData): Promise<PartitionResponse> => {
    const log = store.partition(topic, index);
    if (!log) return Promise.resolve(failed(index, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION));
    try {
      if (records === null || records.length === 0) throw new ApiError(ErrorCode.CORRUPT_MESSAGE, "no record batches");
      return log.appendAll(splitBatches(records)).then(
        ({ baseOffset, logStartOffset }) => ({ index, errorCode: ErrorCode.NONE, baseOffset, logStartOffset, errorMessage: null }),
        (error: unknown) => failed(index, errorCodeOf(error, logger, `appending to ${topic}-${index}`), messageOf(error)),
      );
    } catch (error) {
      return Promise.resolve(failed(index, errorCodeOf(error, logger, `appending to ${topic}-${index}`), messageOf(error)));
    }
  };

  return defineHandler(Produce, async (request) => {
    const acksValid = VALID_ACKS.has(request.acks);
    const pending = request.topicData.map(({ name, partitionData }) => ({
      name,
      partitionResponses: partitionData.map((data) =>
        acksValid ? append(name, data) : Promise.resolve(failed(data.index, ErrorCode.INVALID_REQUIRED_ACKS)),
      ),
    }));
    const responses = await Promise.all(
      pending.map(async ({ name, partitionResponses }) => ({ name, partitionResponses: await Promise.all(partitionResponses) })),
    );
    return request.acks === 0 ? null : { responses };
  });
}

function messageOf(error: unknown): string | null {
  return error instanceof ApiError ? error.message : null;
}
