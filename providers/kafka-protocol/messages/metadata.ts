import { ZERO_UUID } from "../codec";
import { defineApi } from "../schema";

export const Metadata = defineApi({
  name: "Metadata",
  apiKey: 3,
  // v9 is the first flexible version, v10 adds topic ids. Topics are asked for by name: v10 and v11 may name them only
  // so (Kafka serves a request by id from v12 on, which Sluice does not declare), hence no null names.
  versions: "0-11",
  flexibleVersions: "9+",
  request: [
    // v0: an empty array means every topic; v1+: null means every topic.
    {
      name: "topics",
      nullableVersions: "1+",
      fields: [
        { name: "topicId", type: "uuid", versions: "10+", default: ZERO_UUID },
        { name: "name", type: "string" },
      ],
    },
    { name: "allowAutoTopicCreation", type: "boolean", versions: "4+", default: true },
    { name: "includeClusterAuthorizedOperations", type: "boolean", versions: "8-10" },
    { name: "includeTopicAuthorizedOperations", type: "boolean", versions: "8+" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "3+", default: 0 },
    {
      name: "brokers",
      fields: [
        { name: "nodeId", type: "int32" },
        { name: "host", type: "string" },
        { name: "port", type: "int32" },
        { name: "rack", type: "string", versions: "1+", nullableVersions: "1+" },
      ],
    },
    { name: "clusterId", type: "string", versions: "2+", nullableVersions: "2+" },
    { name: "controllerId", type: "int32", versions: "1+" },
    {
      name: "topics",
      fields: [
        { name: "errorCode", type: "int16" },
        { name: "name", type: "string" },
        { name: "topicId", type: "uuid", versions: "10+", default: ZERO_UUID },
        { name: "isInternal", type: "boolean", versions: "1+", default: false },
        {
          name: "partitions",
          fields: [
            { name: "errorCode", type: "int16" },
            { name: "partitionIndex", type: "int32" },
            { name: "leaderId", type: "int32" },
            { name: "leaderEpoch", type: "int32", versions: "7+", default: 0 },
            { name: "replicaNodes", type: "int32", array: true },
            { name: "isrNodes", type: "int32", array: true },
            { name: "offlineReplicas", type: "int32", array: true, versions: "5+", default: [] },
          ],
        },
        { name: "topicAuthorizedOperations", type: "int32", versions: "8+", default: -2147483648 },
      ],
    },
    { name: "clusterAuthorizedOperations", type: "int32", versions: "8-10", default: -2147483648 },
  ],
});
