import { AddOffsetsToTxn } from "../../kafka-protocol/messages/add-offsets-to-txn";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { producerFencedAsOf } from "./producer-fenced-code";

/** Makes a group's offset commits part of the producer's transaction. */
export function addOffsetsToTxnHandler({ transactions }: BrokerServices): RegisteredHandler {
  return defineHandler(AddOffsetsToTxn, async (request, { apiVersion }) => ({
    errorCode: producerFencedAsOf(await transactions.addOffsets(request, request.groupId), apiVersion, 2),
  }));
}
