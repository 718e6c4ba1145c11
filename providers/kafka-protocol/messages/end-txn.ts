import { defineApi } from "../schema";

/**
 * Commits or aborts a producer's transaction (KIP-98). v2 adds the PRODUCER_FENCED error, v3 is the first flexible
 * version, v4 adds TRANSACTION_ABORTABLE. v5 (KIP-890 part 2, transactions V2: an epoch bump at every end, answered
 * with the new epoch) is not declared: the embedded broker serves transactions V1, and Sluice's client sends them to
 * any cluster.
 */
export const EndTxn = defineApi({
  name: "EndTxn",
  apiKey: 26,
  versions: "0-4",
  flexibleVersions: "3+",
  request: [
    { name: "transactionalId", type: "string" },
    { name: "producerId", type: "int64" },
    { name: "producerEpoch", type: "int16" },
    { name: "committed", type: "boolean" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    { name: "errorCode", type: "int16" },
  ],
});
