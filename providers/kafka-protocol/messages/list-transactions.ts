import { defineApi } from "../schema";

/**
 * The transactional ids a coordinator knows, filtered (KIP-664, for `kafka-transactions list`). v1 adds the duration
 * filter (transactions running longer than it, KIP-994), v2 a pattern the ids must match.
 */
export const ListTransactions = defineApi({
  name: "ListTransactions",
  apiKey: 66,
  versions: "0-2",
  flexibleVersions: "0+",
  request: [
    { name: "stateFilters", type: "string", array: true },
    { name: "producerIdFilters", type: "int64", array: true },
    { name: "durationFilter", type: "int64", versions: "1+", default: -1n },
    { name: "transactionalIdPattern", type: "string", versions: "2+", nullableVersions: "2+", default: null },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    { name: "errorCode", type: "int16" },
    { name: "unknownStateFilters", type: "string", array: true },
    {
      name: "transactionStates",
      fields: [
        { name: "transactionalId", type: "string" },
        { name: "producerId", type: "int64" },
        { name: "transactionState", type: "string" },
      ],
    },
  ],
});
