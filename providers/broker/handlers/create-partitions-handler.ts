import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import { CreatePartitions } from "../../kafka-protocol/messages/create-partitions";
import type { RequestOf } from "../../kafka-protocol/schema";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import { BROKER_NODE_ID, type BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

type TopicRequest = RequestOf<typeof CreatePartitions>["topics"][number];

/** Assignments, when given, name one replica per new partition: this broker, the only one there is. */
function checkAssignments({ assignments }: TopicRequest, added: number): void {
  if (assignments === null) return;
  if (assignments.length !== added) throw new ApiError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, `${assignments.length} assignments for ${added} new partitions`);
  if (assignments.some(({ brokerIds }) => brokerIds.length !== 1 || brokerIds[0] !== BROKER_NODE_ID)) {
    throw new ApiError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, `broker ${BROKER_NODE_ID} is the one replica of every partition`);
  }
}

export function createPartitionsHandler({ store, topics, logger }: BrokerServices): RegisteredHandler {
  const grow = async (topic: TopicRequest, duplicated: boolean, validateOnly: boolean) => {
    try {
      if (duplicated) throw new ApiError(ErrorCode.INVALID_REQUEST, `topic "${topic.name}" is listed twice`);
      const current = store.topics().get(topic.name)?.partitions;
      // An unknown topic or a count that does not grow it is refused by addPartitions, whatever the assignments say.
      if (current !== undefined && topic.count > current) checkAssignments(topic, topic.count - current);
      await topics.addPartitions(topic.name, topic.count, validateOnly);
      return { name: topic.name, errorCode: ErrorCode.NONE, errorMessage: null };
    } catch (error) {
      return { name: topic.name, errorCode: errorCodeOf(error, logger, `adding partitions to ${topic.name}`), errorMessage: error instanceof Error ? error.message : null };
    }
  };

  return defineHandler(CreatePartitions, async (request) => {
    const counts = new Map<string, number>();
    for (const { name } of request.topics) counts.set(name, (counts.get(name) ?? 0) + 1);
    return { results: await Promise.all(request.topics.map((topic) => grow(topic, counts.get(topic.name)! > 1, request.validateOnly))) };
  });
}
