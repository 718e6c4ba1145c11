import { EndTxn } from "../../kafka-protocol/messages/end-txn";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { producerFencedAsOf } from "./producer-fenced-code";

/** Commits or aborts the producer's transaction; answered once the decision is durable and its markers written. */
export function endTxnHandler({ transactions }: BrokerServices): RegisteredHandler {
  return defineHandler(EndTxn, async (request, { apiVersion }) => ({
    errorCode: producerFencedAsOf(await transactions.endTransaction(request, request.committed), apiVersion, 2),
  }));
}
