import { defineApi } from "../schema";

export const LeaveGroup = defineApi({
  name: "LeaveGroup",
  apiKey: 13,
  versions: "0-3",
  request: [
    { name: "groupId", type: "string" },
    { name: "memberId", type: "string", versions: "0-2" },
    // v3+ leaves several members at once (batched by static members' instance ids).
    {
      name: "members",
      versions: "3+",
      fields: [
        { name: "memberId", type: "string" },
        { name: "groupInstanceId", type: "string", nullableVersions: "3+" },
      ],
    },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
    { name: "errorCode", type: "int16" },
    {
      name: "members",
      versions: "3+",
      default: [],
      fields: [
        { name: "memberId", type: "string" },
        { name: "groupInstanceId", type: "string", nullableVersions: "3+" },
        { name: "errorCode", type: "int16" },
      ],
    },
  ],
});
