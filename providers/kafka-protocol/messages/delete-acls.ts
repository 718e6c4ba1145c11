import { defineApi } from "../schema";
import { AclFilterFields } from "./describe-acls";

/** Removes the ACLs matching each filter (fields as DescribeAcls's) and names them; v0 left Kafka 4.0 (KIP-896). */
export const DeleteAcls = defineApi({
  name: "DeleteAcls",
  apiKey: 31,
  versions: "1-3",
  flexibleVersions: "2+",
  request: [
    { name: "filters", fields: AclFilterFields },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "filterResults",
      fields: [
        { name: "errorCode", type: "int16" },
        { name: "errorMessage", type: "string", nullableVersions: "0+" },
        {
          name: "matchingAcls",
          fields: [
            { name: "errorCode", type: "int16" },
            { name: "errorMessage", type: "string", nullableVersions: "0+" },
            { name: "resourceType", type: "int8" },
            { name: "resourceName", type: "string" },
            { name: "patternType", type: "int8", default: 3 },
            { name: "principal", type: "string" },
            { name: "host", type: "string" },
            { name: "operation", type: "int8" },
            { name: "permissionType", type: "int8" },
          ],
        },
      ],
    },
  ],
});
