import { defineData } from "../schema";

/** What a consumer-group member tells the group's leader, inside its JoinGroup protocols' metadata. */
export const ConsumerProtocolSubscription = defineData({
  name: "ConsumerProtocolSubscription",
  versions: "0-3",
  fields: [
    { name: "topics", type: "string", array: true },
    { name: "userData", type: "bytes", nullableVersions: "0+", default: null },
    // v1+: the cooperative protocol's partitions the member keeps through a rebalance.
    {
      name: "ownedPartitions",
      versions: "1+",
      default: [],
      fields: [
        { name: "topic", type: "string" },
        { name: "partitions", type: "int32", array: true },
      ],
    },
    { name: "generationId", type: "int32", versions: "2+", default: -1 },
    { name: "rackId", type: "string", versions: "3+", nullableVersions: "3+", default: null },
  ],
});
