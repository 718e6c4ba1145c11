import { defineData } from "../schema";

/** What the group's leader assigns a member, inside SyncGroup. Versions 1-3 change only the subscription. */
export const ConsumerProtocolAssignment = defineData({
  name: "ConsumerProtocolAssignment",
  versions: "0-3",
  fields: [
    {
      name: "assignedPartitions",
      fields: [
        { name: "topic", type: "string" },
        { name: "partitions", type: "int32", array: true },
      ],
    },
    { name: "userData", type: "bytes", nullableVersions: "0+", default: null },
  ],
});
