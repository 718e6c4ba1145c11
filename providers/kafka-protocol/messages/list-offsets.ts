import { defineApi } from "../schema";

export const ListOffsets = defineApi({
  name: "ListOffsets",
  apiKey: 2,
  versions: "0-5",
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
            // -1: the latest offset, -2: the earliest, otherwise a timestamp in ms.
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
