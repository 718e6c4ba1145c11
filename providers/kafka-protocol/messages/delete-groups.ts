import { defineApi } from "../schema";

export const DeleteGroups = defineApi({
  name: "DeleteGroups",
  apiKey: 42,
  versions: "0-2",
  flexibleVersions: "2+",
  request: [{ name: "groupsNames", type: "string", array: true }],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "results",
      fields: [
        { name: "groupId", type: "string" },
        { name: "errorCode", type: "int16" },
      ],
    },
  ],
});
