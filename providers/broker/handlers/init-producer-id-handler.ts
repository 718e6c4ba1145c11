/**
 * InitProducerId for idempotent producers: a producer id never given before, at epoch 0 (Kafka gives a producer
 * without a transactional id a new id every time). Transactions are not supported: a transactional id is refused.
 */
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { InitProducerId } from "../../kafka-protocol/messages/init-producer-id";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

export function initProducerIdHandler({ store, logger }: BrokerServices): RegisteredHandler {
  const refused = (errorCode: number) => ({ throttleTimeMs: 0, errorCode, producerId: -1n, producerEpoch: -1 });
  return defineHandler(InitProducerId, async (request, context) => {
    if (request.transactionalId !== null) {
      logger.info("refused a transactional producer: this broker does not support transactions", { clientId: context.clientId, transactionalId: request.transactionalId });
      return refused(ErrorCode.INVALID_REQUEST);
    }
    try {
      return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, producerId: await store.allocateProducerId(), producerEpoch: 0 };
    } catch (error) {
      return refused(errorCodeOf(error, logger, "allocating a producer id"));
    }
  });
}
