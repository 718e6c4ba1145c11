import { DescribeTransactions } from "../../kafka-protocol/messages/describe-transactions";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

export function describeTransactionsHandler({ transactions }: BrokerServices): RegisteredHandler {
  return defineHandler(DescribeTransactions, (request) => ({
    transactionStates: request.transactionalIds.map((transactionalId) => {
      const described = transactions.describe(transactionalId);
      return {
        errorCode: described.errorCode,
        transactionalId,
        transactionState: described.state,
        transactionTimeoutMs: described.timeoutMs,
        transactionStartTimeMs: BigInt(described.startMs),
        producerId: described.producerId,
        producerEpoch: described.producerEpoch,
        topics: described.topics,
      };
    }),
  }));
}
