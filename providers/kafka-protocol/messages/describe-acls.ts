import { defineApi } from "../schema";

/**
 * The ACLs matching one filter, grouped by resource pattern. Codes are Kafka's: resource types (2 topic, 3 group,
 * 4 cluster, 5 transactional id), pattern types (1 any, 2 match, 3 literal, 4 prefixed), operations and permission
 * types (1 any, 2 deny, 3 allow). A null name, principal or host matches any. v0 left Kafka 4.0 (KIP-896); v3 adds the
 * user resource type.
 */
/** What an ACL filter names; DeleteAcls sends a list of them. */
export const AclFilterFields = [
  { name: "resourceTypeFilter", type: "int8" },
  { name: "resourceNameFilter", type: "string", nullableVersions: "0+" },
  { name: "patternTypeFilter", type: "int8", default: 3 },
  { name: "principalFilter", type: "string", nullableVersions: "0+" },
  { name: "hostFilter", type: "string", nullableVersions: "0+" },
  { name: "operation", type: "int8" },
  { name: "permissionType", type: "int8" },
] as const;

export const DescribeAcls = defineApi({
  name: "DescribeAcls",
  apiKey: 29,
  versions: "1-3",
  flexibleVersions: "2+",
  request: AclFilterFields,
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    { name: "errorCode", type: "int16" },
    { name: "errorMessage", type: "string", nullableVersions: "0+" },
    {
      name: "resources",
      fields: [
        { name: "resourceType", type: "int8" },
        { name: "resourceName", type: "string" },
        { name: "patternType", type: "int8" },
        {
          name: "acls",
          fields: [
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
