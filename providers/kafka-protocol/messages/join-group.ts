import { defineApi } from "../schema";

export const JoinGroup = defineApi({
  name: "JoinGroup",
  apiKey: 11,
  // v6 is the first flexible version.
  versions: "0-5",
  request: [
    { name: "groupId", type: "string" },
    { name: "sessionTimeoutMs", type: "int32" },
    { name: "rebalanceTimeoutMs", type: "int32", versions: "1+", default: -1 },
    { name: "memberId", type: "string" },
    { name: "groupInstanceId", type: "string", versions: "5+", nullableVersions: "5+" },
    { name: "protocolType", type: "string" },
    {
      name: "protocols",
      fields: [
        { name: "name", type: "string" },
        { name: "metadata", type: "bytes" },
      ],
    },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "2+", default: 0 },
    { name: "errorCode", type: "int16" },
    { name: "generationId", type: "int32" },
    { name: "protocolName", type: "string" },
    { name: "leader", type: "string" },
    { name: "memberId", type: "string" },
    {
      name: "members",
      fields: [
        { name: "memberId", type: "string" },
        { name: "groupInstanceId", type: "string", versions: "5+", nullableVersions: "5+" },
        { name: "metadata", type: "bytes" },
      ],
    },
  ],
});
