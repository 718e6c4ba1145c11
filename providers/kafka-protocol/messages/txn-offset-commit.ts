import { defineApi } from "../schema";

/**
 * Offsets committed within a producer's transaction, visible once it commits (KIP-98). v2 adds the leader epoch; v3
 * (flexible) adds the consumer's group metadata, generation, member id and instance id, so a zombie member's commit
 * is fenced (KIP-447); v4 adds TRANSACTION_ABORTABLE. v5 (transactions V2: adds the group implicitly) and v6 (topic
 * ids) are not declared.
 */
export const TxnOffsetCommit = defineApi({
  name: "TxnOffsetCommit",
  apiKey: 28,
  versions: "0-4",
  flexibleVersions: "3+",
  request: [
    { name: "transactionalId", type: "string" },
    { name: "groupId", type: "string" },
    { name: "producerId", type: "int64" },
    { name: "producerEpoch", type: "int16" },
    { name: "generationId", type: "int32", versions: "3+", default: -1 },
    { name: "memberId", type: "string", versions: "3+", default: "" },
    { name: "groupInstanceId", type: "string", versions: "3+", nullableVersions: "3+", default: null },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        {
          name: "partitions",
          fields: [
            { name: "partitionIndex", type: "int32" },
            { name: "committedOffset", type: "int64" },
            { name: "committedLeaderEpoch", type: "int32", versions: "2+", default: -1 },
            { name: "committedMetadata", type: "string", nullableVersions: "0+" },
          ],
        },
      ],
    },
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
            { name: "errorCode", type: "int16" },
          ],
        },
      ],
    },
  ],
});
