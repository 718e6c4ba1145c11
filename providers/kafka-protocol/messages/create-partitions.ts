import { defineApi } from "../schema";

export const CreatePartitions = defineApi({
  name: "CreatePartitions",
  apiKey: 37,
  versions: "0-3",
  flexibleVersions: "2+",
  request: [
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        // The partition count wanted, not the number added.
        { name: "count", type: "int32" },
        // One entry per new partition, or null to let the broker place them.
        { name: "assignments", nullableVersions: "0+", fields: [{ name: "brokerIds", type: "int32", array: true }] },
      ],
    },
    { name: "timeoutMs", type: "int32" },
    { name: "validateOnly", type: "boolean" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "results",
      fields: [
        { name: "name", type: "string" },
        { name: "errorCode", type: "int16" },
        { name: "errorMessage", type: "string", nullableVersions: "0+" },
      ],
    },
  ],
});
