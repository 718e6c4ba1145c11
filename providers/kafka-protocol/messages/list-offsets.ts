import { defineApi } from "../schema";

export const ListOffsets = defineApi({
  name: "ListOffsets",
  apiKey: 2,
  // v7 adds the max timestamp spec (-3), v8 the earliest local one (-4); v6 is the first flexible version.
  versions: "0-8",
  flexibleVersions: "6+",
  request: [
    { name: "replicaId", type: "int32" },
    { name: "isolationLevel", type: "int8", versions: "2+" },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            { name: "currentLeaderEpoch", type: "int32", versions: "4+", default: -1 },
            // -1: the latest offset, -2: the earliest, -3: the record with the largest timestamp, -4: the earliest kept
            // locally (tiered storage); otherwise a timestamp in ms.
            { name: "timestamp", type: "int64" },
            { name: "maxNumOffsets", type: "int32", versions: "0", default: 1 },
          ],
        },
      ],
    },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "2+", default: 0 },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            { name: "errorCode", type: "int16" },
            { name: "oldStyleOffsets", type: "int64", array: true, versions: "0" },
            { name: "timestamp", type: "int64", versions: "1+" },
            { name: "offset", type: "int64", versions: "1+" },
            { name: "leaderEpoch", type: "int32", versions: "4+", default: -1 },
          ],
        },
      ],
    },
  ],
});
