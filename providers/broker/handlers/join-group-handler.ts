import { JoinGroup } from "../../kafka-protocol/messages/join-group";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

/** From v4 a member joining without an id is first given one (MEMBER_ID_REQUIRED) and must join again with it. */
const KNOWN_MEMBER_ID_VERSION = 4;

export function joinGroupHandler({ coordinator }: BrokerServices): RegisteredHandler {
  return defineHandler(JoinGroup, async (request, { apiVersion, clientId, clientHost }) => {
    const result = await coordinator.join({
      groupId: request.groupId,
      sessionTimeoutMs: request.sessionTimeoutMs,
      rebalanceTimeoutMs: request.rebalanceTimeoutMs,
      memberId: request.memberId,
      groupInstanceId: request.groupInstanceId,
      protocolType: request.protocolType,
      protocols: request.protocols,
      clientId,
      clientHost,
      requireKnownMemberId: apiVersion >= KNOWN_MEMBER_ID_VERSION,
    });
    return {
      errorCode: result.errorCode,
      generationId: result.generationId,
      protocolName: result.protocolName ?? "",
      leader: result.leader,
      memberId: result.memberId,
      members: result.members,
    };
  });
}
