import { defineApi } from "../schema";

export const DescribeGroups = defineApi({
  name: "DescribeGroups",
  apiKey: 15,
  versions: "0-4",
  request: [
    { name: "groups", type: "string", array: true },
    { name: "includeAuthorizedOperations", type: "boolean", versions: "3+" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
    {
      name: "groups",
      fields: [
        { name: "errorCode", type: "int16" },
        { name: "groupId", type: "string" },
        { name: "groupState", type: "string" },
        { name: "protocolType", type: "string" },
        { name: "protocolData", type: "string" },
        {
          name: "members",
          fields: [
            { name: "memberId", type: "string" },
            { name: "groupInstanceId", type: "string", versions: "4+", nullableVersions: "4+" },
            { name: "clientId", type: "string" },
            { name: "clientHost", type: "string" },
            { name: "memberMetadata", type: "bytes" },
            { name: "memberAssignment", type: "bytes" },
          ],
        },
        { name: "authorizedOperations", type: "int32", versions: "3+", default: -2147483648 },
      ],
    },
  ],
});
