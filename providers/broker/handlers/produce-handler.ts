import { ApiError, ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { Produce } from "../../kafka-protocol/messages/produce";
import type { RequestOf, ResponseOf } from "../../kafka-protocol/schema";
import { isControlBatch, isTransactionalBatch, readBatchHeader, splitBatches, BATCH_HEADER_SIZE } from "../../kafka-protocol/records/record-batch";
import type { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import { TransactionCoordinator } from "../transactions/transaction-coordinator";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

type PartitionData = RequestOf<typeof Produce>["topicData"][number]["partitionData"][number];
type PartitionResponse = ResponseOf<typeof Produce>["responses"][number]["partitionResponses"][number];

const VALID_ACKS = new Set([0, 1, -1]);

/**
 * Appends each partition's batches as received. Every append is started before the first await, so
 * pipelined produce requests reach a partition in the order they arrived. acks=0 gets no response; on a
 * single node acks=1 and acks=all both mean "appended". A transactional producer's batches are written only into
 * its open transaction, to a partition added to it (the transaction coordinator says); no client writes control
 * batches or the coordinator's own topic.
 */
export function produceHandler({ store, transactions, logger }: BrokerServices): RegisteredHandler {
  /** Throws the ApiError that refuses the batches, if any. */
  const checkWriter = (topic: string, partition: number, batches: ChunkedBytes[], transactionalId: string | null): void => {
    if (TransactionCoordinator.isStateTopic(topic)) throw new ApiError(ErrorCode.INVALID_TOPIC_EXCEPTION, `${topic} is written by the transaction coordinator only`);
    const headers = batches.map((batch) => readBatchHeader(batch.contiguous(0, BATCH_HEADER_SIZE)));
    if (headers.some(isControlBatch)) throw new ApiError(ErrorCode.INVALID_RECORD, "clients may not write control batches");
    const header = headers[0];
    if (!isTransactionalBatch(header)) return;
    if (transactionalId === null) throw new ApiError(ErrorCode.INVALID_TXN_STATE, "a transactional batch needs the request's transactional id");
    const verdict = transactions.verifyWrite({ transactionalId, producerId: header.producerId, producerEpoch: header.producerEpoch }, topic, partition);
    if (verdict !== ErrorCode.NONE) throw new ApiError(verdict, `producer ${header.producerId} at epoch ${header.producerEpoch} may not write to ${topic}-${partition} in transaction ${transactionalId}`);
  };

  const failed = (index: number, errorCode: ErrorCodeValue, errorMessage: string | null = null): PartitionResponse => ({
    index,
    errorCode,
    baseOffset: -1n,
    errorMessage,
  });

  const append = (topic: string, { index, records }: PartitionData, transactionalId: string | null): Promise<PartitionResponse> => {
    const log = store.partition(topic, index);
    if (!log) return Promise.resolve(failed(index, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION));
    try {
      if (records === null || records.length === 0) throw new ApiError(ErrorCode.CORRUPT_MESSAGE, "no record batches");
      const batches = splitBatches(records);
      checkWriter(topic, index, batches, transactionalId);
      return log.appendAll(batches).then(
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
        acksValid ? append(name, data, request.transactionalId) : Promise.resolve(failed(data.index, ErrorCode.INVALID_REQUIRED_ACKS)),
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
