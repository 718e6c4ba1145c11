import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { DeleteGroups } from "../../kafka-protocol/messages/delete-groups";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

/** Deletes empty groups with their committed offsets. */
export function deleteGroupsHandler({ coordinator, consumerGroups, store, logger }: BrokerServices): RegisteredHandler {
  const deleteOne = async (groupId: string): Promise<ErrorCodeValue> => {
    const state = consumerGroups.has(groupId) ? consumerGroups.deleteGroup(groupId) : coordinator.deleteGroup(groupId);
    if (state !== ErrorCode.NONE) return state;
    try {
      if (store.offsets.groups().includes(groupId)) await store.offsets.deleteGroup(groupId);
      logger.info("group deleted", { groupId });
      return ErrorCode.NONE;
    } catch (error) {
      return errorCodeOf(error, logger, `deleting the offsets of group ${groupId}`);
    }
  };

  // One group after another, so a group named twice is deleted once and then not found.
  return defineHandler(DeleteGroups, async (request) => {
    const results = [];
    for (const groupId of request.groupsNames) results.push({ groupId, errorCode: await deleteOne(groupId) });
    return { results };
  });
}
