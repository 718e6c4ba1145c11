import { defineApi } from "../schema";

export const SyncGroup = defineApi({
  name: "SyncGroup",
  apiKey: 14,
  versions: "0-3",
  request: [
    { name: "groupId", type: "string" },
    { name: "generationId", type: "int32" },
    { name: "memberId", type: "string" },
    { name: "groupInstanceId", type: "string", versions: "3+", nullableVersions: "3+" },
    {
      name: "assignments",
      fields: [
        { name: "memberId", type: "string" },
        { name: "assignment", type: "bytes" },
      ],
    },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
    { name: "errorCode", type: "int16" },
    { name: "assignment", type: "bytes" },
  ],
});
