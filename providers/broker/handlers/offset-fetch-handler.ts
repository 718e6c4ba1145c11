import { ErrorCode } from "../../kafka-protocol/error-codes";
import { OffsetFetch } from "../../kafka-protocol/messages/offset-fetch";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

/**
 * A partition without a committed offset answers -1, as Kafka does. Null topics (v2+): everything committed. With
 * requireStable (v7+), a partition whose offset an open transaction commits answers UNSTABLE_OFFSET_COMMIT.
 */
export function offsetFetchHandler({ store, transactions }: BrokerServices): RegisteredHandler {
  const { offsets } = store;
  return defineHandler(OffsetFetch, (request) => {
    const asked =
      request.topics ??
      [...offsets.groupOffsets(request.groupId)].map(([name, partitions]) => ({ name, partitionIndexes: [...partitions.keys()] }));
    return {
      topics: asked.map(({ name, partitionIndexes }) => ({
        name,
        partitions: partitionIndexes.map((partitionIndex) => {
          if (request.requireStable && transactions.hasPendingOffset(request.groupId, name, partitionIndex)) {
            return { partitionIndex, committedOffset: -1n, metadata: null, errorCode: ErrorCode.UNSTABLE_OFFSET_COMMIT };
          }
          const committed = offsets.fetch(request.groupId, name, partitionIndex);
          return {
            partitionIndex,
            committedOffset: committed?.offset ?? -1n,
            metadata: committed ? committed.metadata : "",
            errorCode: ErrorCode.NONE,
          };
        }),
      })),
    };
  });
}
