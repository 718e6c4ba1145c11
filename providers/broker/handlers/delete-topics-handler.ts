import { ErrorCode } from "../../kafka-protocol/error-codes";
import { DeleteTopics } from "../../kafka-protocol/messages/delete-topics";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

export function deleteTopicsHandler({ topics, logger }: BrokerServices): RegisteredHandler {
  return defineHandler(DeleteTopics, async (request) => ({
    responses: await Promise.all(
      request.topicNames.map(async (name) => {
        try {
          await topics.delete(name);
          return { name, errorCode: ErrorCode.NONE };
        } catch (error) {
          return { name, errorCode: errorCodeOf(error, logger, `deleting topic ${name}`) };
        }
      }),
    ),
  }));
}
