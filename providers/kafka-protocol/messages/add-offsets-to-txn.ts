import { defineApi } from "../schema";

/**
 * Makes a group's offset commits part of a producer's transaction (KIP-98), ahead of its TxnOffsetCommit. v2 adds the
 * PRODUCER_FENCED error, v3 is the first flexible version, v4 adds TRANSACTION_ABORTABLE (KIP-890).
 */
export const AddOffsetsToTxn = defineApi({
  name: "AddOffsetsToTxn",
  apiKey: 25,
  versions: "0-4",
  flexibleVersions: "3+",
  request: [
    { name: "transactionalId", type: "string" },
    { name: "producerId", type: "int64" },
    { name: "producerEpoch", type: "int16" },
    { name: "groupId", type: "string" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    { name: "errorCode", type: "int16" },
  ],
});
