import { defineApi } from "../schema";

export const OffsetCommit = defineApi({
  name: "OffsetCommit",
  apiKey: 8,
  // v8 is the first flexible version; v9 the first a member of a consumer protocol group (KIP-848) may send, with its
  // member epoch in generationId. v10 names topics by id, which Sluice does not declare.
  versions: "0-9",
  flexibleVersions: "8+",
  request: [
    { name: "groupId", type: "string" },
    { name: "generationId", type: "int32", versions: "1+", default: -1 },
    { name: "memberId", type: "string", versions: "1+" },
    { name: "groupInstanceId", type: "string", versions: "7+", nullableVersions: "7+" },
    { name: "retentionTimeMs", type: "int64", versions: "2-4", default: -1n },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            { name: "committedOffset", type: "int64" },
            { name: "committedLeaderEpoch", type: "int32", versions: "6+", default: -1 },
            { name: "commitTimestamp", type: "int64", versions: "1", default: -1n },
            { name: "committedMetadata", type: "string", nullableVersions: "0+" },
          ],
        },
      ],
    },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "3+", default: 0 },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            { name: "errorCode", type: "int16" },
          ],
        },
      ],
    },
  ],
});
