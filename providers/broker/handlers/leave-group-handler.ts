import { ErrorCode } from "../../kafka-protocol/error-codes";
import { LeaveGroup } from "../../kafka-protocol/messages/leave-group";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

/** Before v3 one member leaves and the top-level error is its own; from v3 each member has its own error. */
const BATCHED_VERSION = 3;

export function leaveGroupHandler({ coordinator }: BrokerServices): RegisteredHandler {
  return defineHandler(LeaveGroup, (request, { apiVersion }) => {
    const leaving = apiVersion >= BATCHED_VERSION ? request.members : [{ memberId: request.memberId, groupInstanceId: null }];
    const members = coordinator.leave(request.groupId, leaving);
    return {
      errorCode: apiVersion >= BATCHED_VERSION ? ErrorCode.NONE : members[0].errorCode,
      members,
    };
  });
}
