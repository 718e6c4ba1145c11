import { defineApi } from "../schema";

/** A producer id and epoch for an idempotent (transactionalId null) or transactional producer. */
export const InitProducerId = defineApi({
  name: "InitProducerId",
  apiKey: 22,
  // 3 adds the producer's current id and epoch (to resume after INVALID_PRODUCER_EPOCH); 4 the PRODUCER_FENCED error;
  // 5 the TRANSACTION_ABORTABLE error (KIP-890). 6 (two-phase commit, KIP-939) is not declared.
  versions: "0-5",
  flexibleVersions: "2+",
  request: [
    { name: "transactionalId", type: "string", nullableVersions: "0+" },
    { name: "transactionTimeoutMs", type: "int32" },
    { name: "producerId", type: "int64", versions: "3+", default: -1n },
    { name: "producerEpoch", type: "int16", versions: "3+", default: -1 },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32" },
    { name: "errorCode", type: "int16" },
    { name: "producerId", type: "int64" },
    { name: "producerEpoch", type: "int16" },
  ],
});
