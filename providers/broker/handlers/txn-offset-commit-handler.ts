import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { TxnOffsetCommit } from "../../kafka-protocol/messages/txn-offset-commit";
import type { PendingOffset } from "../transactions/transaction-metadata";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

/**
 * Keeps offsets with the producer's transaction, committed when it commits. A fenced producer is answered
 * INVALID_PRODUCER_EPOCH, as an append of Kafka's transactional offset records is (the API has no PRODUCER_FENCED).
 */
export function txnOffsetCommitHandler({ store, transactions }: BrokerServices): RegisteredHandler {
  return defineHandler(TxnOffsetCommit, async (request) => {
    const offsets = new Map<string, Map<number, PendingOffset>>();
    const unknown = new Set<string>();
    for (const { name, partitions } of request.topics) {
      for (const { partitionIndex, committedOffset, committedMetadata } of partitions) {
        if (store.partition(name, partitionIndex) === undefined) unknown.add(`${partitionIndex}:${name}`);
        else offsets.set(name, (offsets.get(name) ?? new Map()).set(partitionIndex, { offset: committedOffset, metadata: committedMetadata }));
      }
    }
    let errorCode: ErrorCodeValue = await transactions.commitOffsets(request, request.groupId, request, offsets);
    if (errorCode === ErrorCode.PRODUCER_FENCED) errorCode = ErrorCode.INVALID_PRODUCER_EPOCH;
    return {
      topics: request.topics.map(({ name, partitions }) => ({
        name,
        partitions: partitions.map(({ partitionIndex }) => ({
          partitionIndex,
          errorCode: unknown.has(`${partitionIndex}:${name}`) ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION : errorCode,
        })),
      })),
    };
  });
}
