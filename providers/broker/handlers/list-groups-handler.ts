import { ErrorCode } from "../../kafka-protocol/error-codes";
import { ListGroups } from "../../kafka-protocol/messages/list-groups";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

export function listGroupsHandler({ coordinator }: BrokerServices): RegisteredHandler {
  return defineHandler(ListGroups, () => ({
    errorCode: ErrorCode.NONE,
    groups: coordinator.list().map(({ groupId, protocolType }) => ({ groupId, protocolType })),
  }));
}
