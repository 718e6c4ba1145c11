import { defineApi } from "../schema";

export const DeleteRecords = defineApi({
  name: "DeleteRecords",
  apiKey: 21,
  versions: "0-2",
  flexibleVersions: "2+",
  request: [
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            // Records before this offset are deleted; -1: the high watermark.
            { name: "offset", type: "int64" },
          ],
        },
      ],
    },
    { name: "timeoutMs", type: "int32" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            // The partition's log start offset after the deletion.
            { name: "lowWatermark", type: "int64" },
            { name: "errorCode", type: "int16" },
          ],
        },
      ],
    },
  ],
});
