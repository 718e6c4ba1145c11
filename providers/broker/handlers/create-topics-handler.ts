import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import { CreateTopics } from "../../kafka-protocol/messages/create-topics";
import type { RequestOf } from "../../kafka-protocol/schema";
import type { TopicSettings } from "../storage/log-store";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

type TopicRequest = RequestOf<typeof CreateTopics>["topics"][number];

/** The topic configs this broker honours; others are accepted and ignored. */
const CONFIG_PARSERS: Record<string, (value: string) => Partial<TopicSettings>> = {
  "retention.ms": (value) => ({ retentionMs: retentionValue(value, "retention.ms") }),
  "retention.bytes": (value) => ({ retentionBytes: retentionValue(value, "retention.bytes") }),
  // This broker does not compact; a compacted topic (a store's changelog) at least never loses records to retention.
  "cleanup.policy": (value) => (value.split(",").includes("delete") ? {} : { retentionMs: null, retentionBytes: null }),
};

/** Kafka writes "keep forever" as -1. */
function retentionValue(value: string, name: string): number | null {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < -1) throw new ApiError(ErrorCode.INVALID_CONFIG, `invalid ${name} "${value}"`);
  return parsed === -1 ? null : parsed;
}

function settingsOf(topic: TopicRequest, defaultPartitions: number): Partial<TopicSettings> {
  if (topic.replicationFactor !== -1 && topic.replicationFactor !== 1) {
    throw new ApiError(ErrorCode.INVALID_REPLICATION_FACTOR, "a single broker can only keep one replica");
  }
  const partitions = topic.assignments.length > 0 ? topic.assignments.length : topic.numPartitions === -1 ? defaultPartitions : topic.numPartitions;
  let settings: Partial<TopicSettings> = { partitions };
  for (const { name, value } of topic.configs) {
    const parse = CONFIG_PARSERS[name];
    if (parse && value !== null) settings = { ...settings, ...parse(value) };
  }
  return settings;
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
    const counts = new Map<string, number>();
    for (const { name } of request.topics) counts.set(name, (counts.get(name) ?? 0) + 1);
    return {
      topics: await Promise.all(request.topics.map((topic) => createOne(topic, counts.get(topic.name)! > 1, request.validateOnly))),
    };
  });
}
