import { DescribeGroups } from "../../kafka-protocol/messages/describe-groups";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

export function describeGroupsHandler({ coordinator }: BrokerServices): RegisteredHandler {
  return defineHandler(DescribeGroups, (request) => ({
    groups: coordinator.describe(request.groups).map((group) => ({
      errorCode: group.errorCode,
      groupId: group.groupId,
      groupState: group.groupState,
      protocolType: group.protocolType,
      protocolData: group.protocolData,
      members: group.members.map((member) => ({
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
        clientId: member.clientId,
        clientHost: member.clientHost,
        memberMetadata: member.metadata,
        memberAssignment: member.assignment,
      })),
    })),
  }));
}
