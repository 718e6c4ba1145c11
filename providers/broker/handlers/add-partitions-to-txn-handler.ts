import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { AddPartitionsToTxn } from "../../kafka-protocol/messages/add-partitions-to-txn";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { producerFencedAsOf } from "./producer-fenced-code";

/**
 * Adds partitions to the producer's transaction. As in Kafka, a request naming a partition that does not exist adds
 * none: that partition is answered UNKNOWN_TOPIC_OR_PARTITION and the others OPERATION_NOT_ATTEMPTED.
 */
export function addPartitionsToTxnHandler({ store, transactions }: BrokerServices): RegisteredHandler {
  return defineHandler(AddPartitionsToTxn, async (request, { apiVersion }) => {
    const unknown = (topic: string, partition: number) => store.partition(topic, partition) === undefined;
    const anyUnknown = request.topics.some(({ name, partitions }) => partitions.some((partition) => unknown(name, partition)));
    let errorCode: ErrorCodeValue = ErrorCode.OPERATION_NOT_ATTEMPTED;
    if (!anyUnknown) {
      const added = new Map(request.topics.map(({ name, partitions }) => [name, partitions]));
      errorCode = producerFencedAsOf(await transactions.addPartitions(request, added), apiVersion, 2);
    }
    return {
      results: request.topics.map(({ name, partitions }) => ({
        name,
        partitions: partitions.map((partitionIndex) => ({
          partitionIndex,
          errorCode: anyUnknown && unknown(name, partitionIndex) ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION : errorCode,
        })),
      })),
    };
  });
}
