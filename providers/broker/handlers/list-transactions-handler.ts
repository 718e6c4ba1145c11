import { ErrorCode } from "../../kafka-protocol/error-codes";
import { ListTransactions } from "../../kafka-protocol/messages/list-transactions";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

export function listTransactionsHandler({ transactions }: BrokerServices): RegisteredHandler {
  return defineHandler(ListTransactions, (request) => {
    let listed;
    try {
      listed = transactions.list({
        states: request.stateFilters,
        producerIds: request.producerIdFilters,
        minDurationMs: Number(request.durationFilter),
        idPattern: request.transactionalIdPattern,
      });
    } catch {
      // A pattern that is no regular expression.
      return { errorCode: ErrorCode.INVALID_REQUEST, unknownStateFilters: [], transactionStates: [] };
    }
    return {
      errorCode: ErrorCode.NONE,
      unknownStateFilters: listed.unknownStates,
      transactionStates: listed.transactions.map(({ transactionalId, producerId, state }) => ({ transactionalId, producerId, transactionState: state })),
    };
  });
}
