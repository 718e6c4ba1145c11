/**
 * The records of the `__transaction_state` topic: keyed by transactional id, each value the id's whole state after
 * a change (a null value, a tombstone, once the id expired), so the newest record of a key is all a restart needs.
 * The key is Kafka's (TransactionLogKey v0); the value follows Kafka's TransactionLogValue v0 and adds what this
 * broker keeps there that Kafka keeps elsewhere: the last epoch (a producer's retry after a timeout, KIP-360) and
 * the offsets committed within the open transaction (Kafka writes those to `__consumer_offsets`).
 */
import { DataCodec } from "../../kafka-protocol/data-codec";
import { defineData } from "../../kafka-protocol/schema";

export const TransactionLogKey = defineData({
  name: "TransactionLogKey",
  versions: "0",
  fields: [{ name: "transactionalId", type: "string" }],
});

export const TransactionLogValue = defineData({
  name: "TransactionLogValue",
  versions: "0",
  fields: [
    { name: "producerId", type: "int64" },
    { name: "producerEpoch", type: "int16" },
    { name: "lastProducerEpoch", type: "int16" },
    { name: "transactionTimeoutMs", type: "int32" },
    // Kafka's state ids: 0 Empty, 1 Ongoing, 2 PrepareCommit, 3 PrepareAbort, 4 CompleteCommit, 5 CompleteAbort.
    { name: "transactionStatus", type: "int8" },
    {
      name: "transactionPartitions",
      fields: [
        { name: "topic", type: "string" },
        { name: "partitionIds", type: "int32", array: true },
      ],
    },
    { name: "transactionLastUpdateTimestampMs", type: "int64" },
    { name: "transactionStartTimestampMs", type: "int64" },
    {
      name: "pendingOffsets",
      fields: [
        { name: "groupId", type: "string" },
        {
          name: "topics",
          fields: [
            { name: "topic", type: "string" },
            {
              name: "partitions",
              fields: [
                { name: "partition", type: "int32" },
                { name: "offset", type: "int64" },
                { name: "metadata", type: "string", nullableVersions: "0+" },
              ],
            },
          ],
        },
      ],
    },
  ],
});

export const TRANSACTION_LOG_KEY = new DataCodec(TransactionLogKey);
export const TRANSACTION_LOG_VALUE = new DataCodec(TransactionLogValue);
