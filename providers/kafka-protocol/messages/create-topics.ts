import { defineApi } from "../schema";

export const CreateTopics = defineApi({
  name: "CreateTopics",
  apiKey: 19,
  versions: "0-4",
  request: [
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        // -1 (v4+): the broker's default.
        { name: "numPartitions", type: "int32" },
        { name: "replicationFactor", type: "int16" },
        {
          name: "assignments",
          fields: [
            { name: "partitionIndex", type: "int32" },
            { name: "brokerIds", type: "int32", array: true },
          ],
        },
        {
          name: "configs",
          fields: [
            { name: "name", type: "string" },
            { name: "value", type: "string", nullableVersions: "0+" },
          ],
        },
      ],
    },
    { name: "timeoutMs", type: "int32" },
    { name: "validateOnly", type: "boolean", versions: "1+" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "2+", default: 0 },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        { name: "errorCode", type: "int16" },
        { name: "errorMessage", type: "string", versions: "1+", nullableVersions: "0+" },
      ],
    },
  ],
});
