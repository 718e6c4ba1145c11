import { defineApi } from "../schema";

export const DescribeConfigs = defineApi({
  name: "DescribeConfigs",
  apiKey: 32,
  versions: "0-4",
  flexibleVersions: "4+",
  request: [
    {
      name: "resources",
      fields: [
        // 2: a topic, 4: a broker (by its node id; "" for the cluster-wide defaults).
        { name: "resourceType", type: "int8" },
        { name: "resourceName", type: "string" },
        // null: every config of the resource.
        { name: "configurationKeys", type: "string", array: true, nullableVersions: "0+" },
      ],
    },
    { name: "includeSynonyms", type: "boolean", versions: "1+", default: false },
    { name: "includeDocumentation", type: "boolean", versions: "3+", default: false },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "results",
      fields: [
        { name: "errorCode", type: "int16" },
        { name: "errorMessage", type: "string", nullableVersions: "0+" },
        { name: "resourceType", type: "int8" },
        { name: "resourceName", type: "string" },
        {
          name: "configs",
          fields: [
            { name: "name", type: "string" },
            { name: "value", type: "string", nullableVersions: "0+" },
            { name: "readOnly", type: "boolean" },
            { name: "isDefault", type: "boolean", versions: "0" },
            { name: "configSource", type: "int8", versions: "1+" },
            { name: "isSensitive", type: "boolean" },
            {
              name: "synonyms",
              versions: "1+",
              fields: [
                { name: "name", type: "string" },
                { name: "value", type: "string", nullableVersions: "0+" },
                { name: "source", type: "int8" },
              ],
            },
            { name: "configType", type: "int8", versions: "3+" },
            { name: "documentation", type: "string", versions: "3+", nullableVersions: "0+" },
          ],
        },
      ],
    },
  ],
});
