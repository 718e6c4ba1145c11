import { ErrorCode } from "../../kafka-protocol/error-codes";
import { FindCoordinator } from "../../kafka-protocol/messages/find-coordinator";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import { BROKER_NODE_ID } from "./broker-services";

/** Every group's coordinator is this broker. */
export function findCoordinatorHandler(): RegisteredHandler {
  return defineHandler(FindCoordinator, (_request, { advertisedHost, advertisedPort }) => ({
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    nodeId: BROKER_NODE_ID,
    host: advertisedHost,
    port: advertisedPort,
  }));
}
