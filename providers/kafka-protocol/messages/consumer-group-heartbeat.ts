import { defineApi } from "../schema";

/** A topic's partitions, by topic id: what a member owns (request) and what it is given (response). */
const topicPartitions = [
  { name: "topicId", type: "uuid" },
  { name: "partitions", type: "int32", array: true },
] as const;

/**
 * The consumer group protocol's one group request (KIP-848, Kafka 3.7+; the default of Kafka 4 clients): a member
 * joins (epoch 0), reports what it owns and subscribes to, and learns its assignment and epoch, all in heartbeats.
 * The request's nullable fields are null when unchanged since the member's last heartbeat. v1 (KIP-1082): the member
 * chooses its own id (a Uuid); v1 also adds a subscription by regular expression.
 */
export const ConsumerGroupHeartbeat = defineApi({
  name: "ConsumerGroupHeartbeat",
  apiKey: 68,
  versions: "0-1",
  flexibleVersions: "0+",
  request: [
    { name: "groupId", type: "string" },
    { name: "memberId", type: "string" },
    // 0 joins, -1 leaves, -2 leaves as a static member that comes back (its assignment waits for it).
    { name: "memberEpoch", type: "int32" },
    { name: "instanceId", type: "string", nullableVersions: "0+", default: null },
    { name: "rackId", type: "string", nullableVersions: "0+", default: null },
    { name: "rebalanceTimeoutMs", type: "int32", default: -1 },
    { name: "subscribedTopicNames", type: "string", array: true, nullableVersions: "0+", default: null },
    { name: "subscribedTopicRegex", type: "string", versions: "1+", nullableVersions: "1+", default: null },
    { name: "serverAssignor", type: "string", nullableVersions: "0+", default: null },
    { name: "topicPartitions", nullableVersions: "0+", default: null, fields: topicPartitions },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    { name: "errorCode", type: "int16" },
    { name: "errorMessage", type: "string", nullableVersions: "0+", default: null },
    { name: "memberId", type: "string", nullableVersions: "0+", default: null },
    { name: "memberEpoch", type: "int32" },
    { name: "heartbeatIntervalMs", type: "int32" },
    // null: unchanged since the last answer.
    { name: "assignment", single: true, nullableVersions: "0+", default: null, fields: [{ name: "topicPartitions", fields: topicPartitions }] },
  ],
});
