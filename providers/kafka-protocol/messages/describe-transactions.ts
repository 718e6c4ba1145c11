import { defineApi } from "../schema";

/** The state of transactional ids, as their coordinator keeps it (KIP-664, for `kafka-transactions describe`). */
export const DescribeTransactions = defineApi({
  name: "DescribeTransactions",
  apiKey: 65,
  versions: "0",
  flexibleVersions: "0+",
  request: [{ name: "transactionalIds", type: "string", array: true }],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    {
      name: "transactionStates",
      fields: [
        { name: "errorCode", type: "int16" },
        { name: "transactionalId", type: "string" },
        { name: "transactionState", type: "string" },
        { name: "transactionTimeoutMs", type: "int32" },
        { name: "transactionStartTimeMs", type: "int64" },
        { name: "producerId", type: "int64" },
        { name: "producerEpoch", type: "int16" },
        {
          name: "topics",
          fields: [
            { name: "topic", type: "string" },
            { name: "partitions", type: "int32", array: true },
          ],
        },
      ],
    },
  ],
});
