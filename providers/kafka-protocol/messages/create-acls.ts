import { defineApi } from "../schema";

/** ACL bindings to add, each answered on its own (codes as in DescribeAcls); v0 left Kafka 4.0 (KIP-896). */
export const CreateAcls = defineApi({
  name: "CreateAcls",
  apiKey: 30,
  versions: "1-3",
  flexibleVersions: "2+",
  request: [
    {
      name: "creations",
      fields: [
        { name: "resourceType", type: "int8" },
        { name: "resourceName", type: "string" },
        { name: "resourcePatternType", type: "int8", default: 3 },
        { name: "principal", type: "string" },
        { name: "host", type: "string" },
        { name: "operation", type: "int8" },
        { name: "permissionType", type: "int8" },
      ],
    },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "results",
      fields: [
        { name: "errorCode", type: "int16" },
        { name: "errorMessage", type: "string", nullableVersions: "0+" },
      ],
    },
  ],
});
