import { defineApi } from "../schema";

export const Heartbeat = defineApi({
  name: "Heartbeat",
  apiKey: 12,
  versions: "0-3",
  request: [
    { name: "groupId", type: "string" },
    { name: "generationId", type: "int32" },
    { name: "memberId", type: "string" },
    { name: "groupInstanceId", type: "string", versions: "3+", nullableVersions: "3+" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
    { name: "errorCode", type: "int16" },
  ],
});
