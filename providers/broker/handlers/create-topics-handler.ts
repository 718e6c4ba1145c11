import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import { CreateTopics } from "../../kafka-protocol/messages/create-topics";
import type { RequestOf } from "../../kafka-protocol/schema";
import type { TopicSettings } from "../storage/log-store";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";
import { topicSettingsOf } from "./topic-configs";

type TopicRequest = RequestOf<typeof CreateTopics>["topics"][number];

/** Kafka's controller refuses a CreateTopics request adding more partitions than this, whole, with POLICY_VIOLATION. */
const MAX_PARTITIONS_PER_REQUEST = 10_000;

/** The partitions a request asks for, as Kafka's controller counts them (ignoring counts that are invalid anyway). */
function requestedPartitions(topics: readonly TopicRequest[], defaultPartitions: number): number {
  let total = 0;
  for (const topic of topics) total += topic.assignments.length > 0 ? topic.assignments.length : topic.numPartitions === -1 ? defaultPartitions : Math.max(topic.numPartitions, 0);
  return total;
}

function settingsOf(topic: TopicRequest, defaultPartitions: number): Partial<TopicSettings> {
  if (topic.replicationFactor !== -1 && topic.replicationFactor !== 1) {
    throw new ApiError(ErrorCode.INVALID_REPLICATION_FACTOR, "a single broker can only keep one replica");
  }
  const partitions = topic.assignments.length > 0 ? topic.assignments.length : topic.numPartitions === -1 ? defaultPartitions : topic.numPartitions;
  return { partitions, ...topicSettingsOf(topic.configs) };
}

export function createTopicsHandler({ topics, logger }: BrokerServices): RegisteredHandler {
  const createOne = async (topic: TopicRequest, duplicated: boolean, validateOnly: boolean) => {
    try {
      if (duplicated) throw new ApiError(ErrorCode.INVALID_REQUEST, `topic "${topic.name}" is listed twice`);
      await topics.create(topic.name, settingsOf(topic, topics.defaults.numPartitions), validateOnly);
      return { name: topic.name, errorCode: ErrorCode.NONE, errorMessage: null };
    } catch (error) {
      const errorCode = errorCodeOf(error, logger, `creating topic ${topic.name}`);
      return { name: topic.name, errorCode, errorMessage: error instanceof Error ? error.message : null };
    }
  };

  return defineHandler(CreateTopics, async (request) => {
    const requested = requestedPartitions(request.topics, topics.defaults.numPartitions);
    if (requested > MAX_PARTITIONS_PER_REQUEST) {
      const errorMessage = `Excessively large number of partitions per request: ${requested}, at most ${MAX_PARTITIONS_PER_REQUEST}`;
      return { topics: request.topics.map(({ name }) => ({ name, errorCode: ErrorCode.POLICY_VIOLATION, errorMessage })) };
    }
    const counts = new Map<string, number>();
    for (const { name } of request.topics) counts.set(name, (counts.get(name) ?? 0) + 1);
    return {
      topics: await Promise.all(request.topics.map((topic) => createOne(topic, counts.get(topic.name)! > 1, request.validateOnly))),
    };
  });
}
