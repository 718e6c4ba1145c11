import { SyncGroup } from "../../kafka-protocol/messages/sync-group";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

export function syncGroupHandler({ coordinator }: BrokerServices): RegisteredHandler {
  return defineHandler(SyncGroup, async (request) => {
    const { errorCode, assignment } = await coordinator.sync(request);
    return { errorCode, assignment };
  });
}
