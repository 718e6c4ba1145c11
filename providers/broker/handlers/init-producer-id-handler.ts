/**
 * InitProducerId. Without a transactional id (an idempotent producer): a producer id never given before, at epoch 0
 * (Kafka gives such a producer a new id every time). With one: the transaction coordinator's answer, the id's
 * producer id at a bumped epoch that fences the older ones.
 */
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { InitProducerId } from "../../kafka-protocol/messages/init-producer-id";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";
import { producerFencedAsOf } from "./producer-fenced-code";

export function initProducerIdHandler({ store, transactions, logger }: BrokerServices): RegisteredHandler {
  const refused = (errorCode: number) => ({ throttleTimeMs: 0, errorCode, producerId: -1n, producerEpoch: -1 });
  return defineHandler(InitProducerId, async (request, { apiVersion }) => {
    if (request.transactionalId !== null) {
      const current = request.producerId >= 0n ? { producerId: request.producerId, producerEpoch: request.producerEpoch } : null;
      const answer = await transactions.initProducerId(request.transactionalId, request.transactionTimeoutMs, current, () => store.allocateProducerId());
      return { throttleTimeMs: 0, ...answer, errorCode: producerFencedAsOf(answer.errorCode, apiVersion, 4) };
    }
    try {
      return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, producerId: await store.allocateProducerId(), producerEpoch: 0 };
    } catch (error) {
      return refused(errorCodeOf(error, logger, "allocating a producer id"));
    }
  });
}
