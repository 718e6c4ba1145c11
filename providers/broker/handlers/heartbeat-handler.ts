import { Heartbeat } from "../../kafka-protocol/messages/heartbeat";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

export function heartbeatHandler({ coordinator }: BrokerServices): RegisteredHandler {
  return defineHandler(Heartbeat, (request) => ({ errorCode: coordinator.heartbeat(request) }));
}
