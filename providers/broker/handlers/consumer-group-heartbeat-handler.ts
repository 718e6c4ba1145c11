import { ConsumerGroupHeartbeat } from "../../kafka-protocol/messages/consumer-group-heartbeat";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

/** The consumer group protocol's one group request (KIP-848): join, heartbeat and leave, answered with the member's assignment. */
export function consumerGroupHeartbeatHandler({ consumerGroups }: BrokerServices): RegisteredHandler {
  return defineHandler(ConsumerGroupHeartbeat, (request, { apiVersion, clientId, clientHost }) => ({
    throttleTimeMs: 0,
    ...consumerGroups.heartbeat(request, { apiVersion, clientId, clientHost }),
  }));
}
