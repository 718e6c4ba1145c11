import { defineApi } from "../schema";

/**
 * A group's committed offsets. v6 is the first flexible version; v7 adds requireStable (KIP-447): a partition whose
 * offset an open transaction is committing is answered UNSTABLE_OFFSET_COMMIT instead of its older offset, so a
 * read_committed member taking it over waits for that transaction to end. v8 (several groups) is not declared.
 */
export const OffsetFetch = defineApi({
  name: "OffsetFetch",
  apiKey: 9,
  versions: "0-7",
  flexibleVersions: "6+",
  request: [
    { name: "groupId", type: "string" },
    // null (v2+): every partition the group has committed.
    {
      name: "topics",
      nullableVersions: "2+",
      fields: [
        { name: "name", type: "string" },
        { name: "partitionIndexes", type: "int32", array: true },
      ],
    },
    { name: "requireStable", type: "boolean", versions: "7+", default: false },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "3+", default: 0 },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            { name: "committedOffset", type: "int64" },
            { name: "committedLeaderEpoch", type: "int32", versions: "5+", default: -1 },
            { name: "metadata", type: "string", nullableVersions: "0+" },
            { name: "errorCode", type: "int16" },
          ],
        },
      ],
    },
    { name: "errorCode", type: "int16", versions: "2+", default: 0 },
  ],
});
