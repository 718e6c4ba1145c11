import { defineApi } from "../schema";

export const ListGroups = defineApi({
  name: "ListGroups",
  apiKey: 16,
  // v3 is the first flexible version.
  versions: "0-2",
  request: [],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
    { name: "errorCode", type: "int16" },
    {
      name: "groups",
      fields: [
        { name: "groupId", type: "string" },
        { name: "protocolType", type: "string" },
      ],
    },
  ],
});
