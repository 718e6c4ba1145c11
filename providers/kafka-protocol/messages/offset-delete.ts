import { defineApi } from "../schema";

/** Deletes committed offsets of a group, partition by partition (kafka-consumer-groups --delete-offsets). */
export const OffsetDelete = defineApi({
  name: "OffsetDelete",
  apiKey: 47,
  versions: "0",
  request: [
    { name: "groupId", type: "string" },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        { name: "partitions", fields: [{ name: "partitionIndex", type: "int32" }] },
      ],
    },
  ],
  response: [
    { name: "errorCode", type: "int16" },
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            { name: "errorCode", type: "int16" },
          ],
        },
      ],
    },
  ],
});
