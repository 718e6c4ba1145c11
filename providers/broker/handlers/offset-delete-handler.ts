/**
 * OffsetDelete: forgets a group's committed offsets of some partitions, as Kafka's coordinator does for a classic
 * group. An empty group loses any of them; a group with members keeps those of the
 * topics its members subscribe to (GROUP_SUBSCRIBED_TO_TOPIC) and must speak the consumer protocol (NON_EMPTY_GROUP).
 */
import { decodeSubscription } from "../../kafka-protocol/consumer-protocol";
import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { OffsetDelete } from "../../kafka-protocol/messages/offset-delete";
import type { RequestOf, ResponseOf } from "../../kafka-protocol/schema";
import type { DescribedGroup } from "../group/group-coordinator";
import type { TopicPartitionRef } from "../storage/log-store";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

type Response = ResponseOf<typeof OffsetDelete>;

/** The topics the members of a live group subscribe to; undefined when some subscription cannot be read (then every topic counts as subscribed). */
function subscribedTopics(group: DescribedGroup): Set<string> | undefined {
  if (group.groupState === "Empty") return new Set();
  const topics = new Set<string>();
  try {
    for (const member of group.members) for (const topic of decodeSubscription(member.metadata).topics) topics.add(topic);
  } catch {
    return undefined;
  }
  return topics;
}

export function offsetDeleteHandler({ coordinator, store, logger }: BrokerServices): RegisteredHandler {
  const groupError = (groupId: string, group: DescribedGroup): ErrorCodeValue => {
    if (groupId === "") return ErrorCode.INVALID_GROUP_ID;
    if (group.errorCode !== ErrorCode.NONE) return group.errorCode;
    if (group.groupState === "Dead") return ErrorCode.GROUP_ID_NOT_FOUND;
    if (group.groupState !== "Empty" && group.protocolType !== "consumer") return ErrorCode.NON_EMPTY_GROUP;
    return ErrorCode.NONE;
  };

  return defineHandler(OffsetDelete, async (request: RequestOf<typeof OffsetDelete>): Promise<Response> => {
    const [group] = coordinator.describe([request.groupId]);
    const error = groupError(request.groupId, group);
    if (error !== ErrorCode.NONE) return { errorCode: error, topics: [] };

    const subscribed = subscribedTopics(group);
    const topicErrors = new Map<string, ErrorCodeValue>();
    for (const { name } of request.topics) {
      if (!store.topics().has(name)) topicErrors.set(name, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      else if (subscribed === undefined || subscribed.has(name)) topicErrors.set(name, ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC);
    }
    const deleted: TopicPartitionRef[] = request.topics
      .filter(({ name }) => !topicErrors.has(name))
      .flatMap(({ name, partitions }) => partitions.map(({ partitionIndex }) => ({ topic: name, partition: partitionIndex })));
    let deletion: ErrorCodeValue = ErrorCode.NONE;
    if (deleted.length > 0) {
      try {
        await store.offsets.deleteOffsets(request.groupId, deleted);
        logger.info("group offsets deleted", { groupId: request.groupId, partitions: deleted.length });
      } catch (failure) {
        deletion = errorCodeOf(failure, logger, `deleting offsets of group ${request.groupId}`);
      }
    }
    return {
      errorCode: ErrorCode.NONE,
      topics: request.topics.map(({ name, partitions }) => {
        const errorCode = topicErrors.get(name) ?? deletion;
        return { name, partitions: partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode })) };
      }),
    };
  });
}
