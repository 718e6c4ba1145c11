import { defineApi } from "../schema";

/**
 * Adds partitions to a producer's transaction before it writes to them (KIP-98). v4+ batch several transactions and
 * are sent by brokers to the coordinator only (KIP-890); clients send 0-3, which is what this broker serves. v2 adds
 * the PRODUCER_FENCED error, v3 is the first flexible version.
 */
export const AddPartitionsToTxn = defineApi({
  name: "AddPartitionsToTxn",
  apiKey: 24,
  versions: "0-3",
  flexibleVersions: "3+",
  request: [
    { name: "transactionalId", type: "string" },
    { name: "producerId", type: "int64" },
    { name: "producerEpoch", type: "int16" },
    {
      name: "topics",
      fields: [
        { name: "name", type: "string" },
        { name: "partitions", type: "int32", array: true },
      ],
    },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "results",
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
