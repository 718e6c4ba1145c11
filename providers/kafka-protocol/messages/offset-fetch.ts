import { defineApi } from "../schema";

export const OffsetFetch = defineApi({
  name: "OffsetFetch",
  apiKey: 9,
  // v6 is the first flexible version.
  versions: "0-5",
  request: [
    { name: "groupId", type: "string" },
    // null (v2+): every partition the group has committed.
    {
      name: "topics",
      nullableVersions: "2+",
      fields: [
        { name: "name", type: "string" },
        { name: "partitionIndexes", type: "int32", array: true },
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
            { name: "committedOffset", type: "int64" },
            { name: "committedLeaderEpoch", type: "int32", versions: "5+", default: -1 },
            { name: "metadata", type: "string", nullableVersions: "0+" },
            { name: "errorCode", type: "int16" },
          ],
        },
      ],
    },
    { name: "errorCode", type: "int16", versions: "2+", default: 0 },
  ],
});
