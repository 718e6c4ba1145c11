import { defineApi } from "../schema";

/** A member's partitions by topic, with both the topic's id and its name. */
const assignment = [
  {
    name: "topicPartitions",
    fields: [
      { name: "topicId", type: "uuid" },
      { name: "topicName", type: "string" },
      { name: "partitions", type: "int32", array: true },
    ],
  },
] as const;

/**
 * Describes groups of the consumer group protocol (KIP-848): their state and epochs, the assignor, and each member's
 * subscription, current assignment and target assignment. Kafka's AdminClient (describeConsumerGroups, and so
 * kafka-consumer-groups.sh --describe) asks it first. Kafka 4.1+ has a v1 (the member's type); v0 is all Sluice declares.
 */
export const ConsumerGroupDescribe = defineApi({
  name: "ConsumerGroupDescribe",
  apiKey: 69,
  versions: "0",
  flexibleVersions: "0+",
  request: [
    { name: "groupIds", type: "string", array: true },
    { name: "includeAuthorizedOperations", type: "boolean" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "groups",
      fields: [
        { name: "errorCode", type: "int16" },
        { name: "errorMessage", type: "string", nullableVersions: "0+", default: null },
        { name: "groupId", type: "string" },
        { name: "groupState", type: "string" },
        { name: "groupEpoch", type: "int32" },
        { name: "assignmentEpoch", type: "int32" },
        { name: "assignorName", type: "string" },
        {
          name: "members",
          fields: [
            { name: "memberId", type: "string" },
            { name: "instanceId", type: "string", nullableVersions: "0+", default: null },
            { name: "rackId", type: "string", nullableVersions: "0+", default: null },
            { name: "memberEpoch", type: "int32" },
            { name: "clientId", type: "string" },
            { name: "clientHost", type: "string" },
            { name: "subscribedTopicNames", type: "string", array: true },
            { name: "subscribedTopicRegex", type: "string", nullableVersions: "0+", default: null },
            { name: "assignment", single: true, fields: assignment },
            { name: "targetAssignment", single: true, fields: assignment },
          ],
        },
        { name: "authorizedOperations", type: "int32", default: -2147483648 },
      ],
    },
  ],
});
