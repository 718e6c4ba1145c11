import { defineApi } from "../schema";

export const Fetch = defineApi({
  name: "Fetch",
  apiKey: 1,
  // v4 is the first version whose responses carry magic-2 record batches with the last stable offset.
  versions: "4-11",
  request: [
    { name: "replicaId", type: "int32" },
    { name: "maxWaitMs", type: "int32" },
    { name: "minBytes", type: "int32" },
    { name: "maxBytes", type: "int32", versions: "3+", default: 0x7fffffff },
    { name: "isolationLevel", type: "int8", versions: "4+" },
    { name: "sessionId", type: "int32", versions: "7+" },
    { name: "sessionEpoch", type: "int32", versions: "7+", default: -1 },
    {
      name: "topics",
      fields: [
        { name: "topic", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partition", type: "int32" },
            { name: "currentLeaderEpoch", type: "int32", versions: "9+", default: -1 },
            { name: "fetchOffset", type: "int64" },
            { name: "logStartOffset", type: "int64", versions: "5+", default: -1n },
            { name: "partitionMaxBytes", type: "int32" },
          ],
        },
      ],
    },
    {
      name: "forgottenTopicsData",
      versions: "7+",
      fields: [
        { name: "topic", type: "string" },
        { name: "partitions", type: "int32", array: true },
      ],
    },
    { name: "rackId", type: "string", versions: "11+" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
    { name: "errorCode", type: "int16", versions: "7+", default: 0 },
    { name: "sessionId", type: "int32", versions: "7+", default: 0 },
    {
      name: "responses",
      fields: [
        { name: "topic", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            { name: "errorCode", type: "int16" },
            { name: "highWatermark", type: "int64" },
            { name: "lastStableOffset", type: "int64", versions: "4+" },
            { name: "logStartOffset", type: "int64", versions: "5+" },
            {
              name: "abortedTransactions",
              versions: "4+",
              nullableVersions: "4+",
              default: null,
              fields: [
                { name: "producerId", type: "int64" },
                { name: "firstOffset", type: "int64" },
              ],
            },
            { name: "preferredReadReplica", type: "int32", versions: "11+", default: -1 },
            { name: "records", type: "records", nullableVersions: "0+" },
          ],
        },
      ],
    },
  ],
});
