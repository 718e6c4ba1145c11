import { defineApi } from "../schema";

export const ListGroups = defineApi({
  name: "ListGroups",
  apiKey: 16,
  versions: "0-5",
  flexibleVersions: "3+",
  request: [
    // Empty: groups in any state; otherwise only those in one of these states (compared without regard to case).
    { name: "statesFilter", type: "string", array: true, versions: "4+", default: [] },
    // Empty: groups of any type ("classic", "consumer", ...); otherwise only those of these types.
    { name: "typesFilter", type: "string", array: true, versions: "5+", default: [] },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
    { name: "errorCode", type: "int16" },
    {
      name: "groups",
      fields: [
        { name: "groupId", type: "string" },
        { name: "protocolType", type: "string" },
        { name: "groupState", type: "string", versions: "4+", default: "" },
        { name: "groupType", type: "string", versions: "5+", default: "" },
      ],
    },
  ],
});
