import { ErrorCode } from "../../kafka-protocol/error-codes";
import { ListGroups } from "../../kafka-protocol/messages/list-groups";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

/** Every group this coordinator holds is a classic group (JoinGroup / SyncGroup), as Kafka names the type. */
const GROUP_TYPE = "classic";

/** The groups, filtered by state (v4+) and type (v5+) as Kafka filters them: an empty filter keeps every group, names match whatever their case. */
export function listGroupsHandler({ coordinator }: BrokerServices): RegisteredHandler {
  return defineHandler(ListGroups, (request) => {
    const lowerCase = (names: string[]) => new Set(names.map((name) => name.toLowerCase()));
    const states = lowerCase(request.statesFilter);
    const types = lowerCase(request.typesFilter);
    const groups = types.size > 0 && !types.has(GROUP_TYPE) ? [] : coordinator.list().filter(({ groupState }) => states.size === 0 || states.has(groupState.toLowerCase()));
    return {
      errorCode: ErrorCode.NONE,
      groups: groups.map(({ groupId, protocolType, groupState }) => ({ groupId, protocolType, groupState, groupType: GROUP_TYPE })),
    };
  });
}
