import { defineApi } from "../schema";

export const Produce = defineApi({
  name: "Produce",
  apiKey: 0,
  // v0-2 carry message formats 0 and 1, which this broker does not store.
  versions: "3-8",
  request: [
    { name: "transactionalId", type: "string", nullableVersions: "3+" },
    { name: "acks", type: "int16" },
    { name: "timeoutMs", type: "int32" },
    {
      name: "topicData",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitionData",
          fields: [
            { name: "index", type: "int32" },
            { name: "records", type: "records", nullableVersions: "0+" },
          ],
        },
      ],
    },
  ],
  response: [
    {
      name: "responses",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitionResponses",
          fields: [
            { name: "index", type: "int32" },
            { name: "errorCode", type: "int16" },
            { name: "baseOffset", type: "int64" },
            { name: "logAppendTimeMs", type: "int64", versions: "2+", default: -1n },
            { name: "logStartOffset", type: "int64", versions: "5+", default: -1n },
            {
              name: "recordErrors",
              versions: "8+",
              default: [],
              fields: [
                { name: "batchIndex", type: "int32" },
                { name: "batchIndexErrorMessage", type: "string", nullableVersions: "8+" },
              ],
            },
            { name: "errorMessage", type: "string", versions: "8+", nullableVersions: "8+" },
          ],
        },
      ],
    },
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
  ],
});
