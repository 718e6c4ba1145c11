import { ErrorCode } from "../../kafka-protocol/error-codes";
import { ListGroups } from "../../kafka-protocol/messages/list-groups";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

/** The protocol type of consumer protocol groups (KIP-848), as Kafka lists them. */
const CONSUMER_PROTOCOL_TYPE = "consumer";

/**
 * The groups of both protocols, typed `classic` (JoinGroup / SyncGroup) or `consumer` (KIP-848), filtered by state
 * (v4+) and type (v5+) as Kafka filters them: an empty filter keeps every group, names match whatever their case.
 */
export function listGroupsHandler({ coordinator, consumerGroups }: BrokerServices): RegisteredHandler {
  return defineHandler(ListGroups, (request) => {
    const lowerCase = (names: string[]) => new Set(names.map((name) => name.toLowerCase()));
    const states = lowerCase(request.statesFilter);
    const types = lowerCase(request.typesFilter);
    const groups = [
      ...coordinator.list().map((group) => ({ ...group, groupType: "classic" })),
      ...consumerGroups.list().map((group) => ({ ...group, protocolType: CONSUMER_PROTOCOL_TYPE, groupType: "consumer" })),
    ].filter(({ groupState, groupType }) => (states.size === 0 || states.has(groupState.toLowerCase())) && (types.size === 0 || types.has(groupType)));
    return {
      errorCode: ErrorCode.NONE,
      groups: groups.map(({ groupId, protocolType, groupState, groupType }) => ({ groupId, protocolType, groupState, groupType })),
    };
  });
}
