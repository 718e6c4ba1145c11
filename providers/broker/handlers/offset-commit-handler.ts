import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { OffsetCommit } from "../../kafka-protocol/messages/offset-commit";
import type { OffsetCommitEntry } from "../storage/log-store";
import { offsetCommitAdmission } from "../group/offset-commit-admission";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";

/** Commits the offsets of partitions that exist, durably, once the coordinator allows the member to commit. */
export function offsetCommitHandler({ store, coordinator, consumerGroups, logger }: BrokerServices): RegisteredHandler {
  const admit = offsetCommitAdmission(coordinator, consumerGroups);
  // v9: members of consumer protocol groups (KIP-848) commit with their member epoch as the generation.
  return defineHandler(OffsetCommit, async (request, { apiVersion }) => {
    const allowed = admit(request, apiVersion);
    const codes = new Map<string, ErrorCodeValue>();
    const key = (topic: string, partition: number) => `${partition}:${topic}`;
    const entries: OffsetCommitEntry[] = [];
    for (const { name, partitions } of request.topics) {
      for (const { partitionIndex, committedOffset, committedMetadata } of partitions) {
        if (allowed !== ErrorCode.NONE) codes.set(key(name, partitionIndex), allowed);
        else if (!store.partition(name, partitionIndex)) codes.set(key(name, partitionIndex), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        else entries.push({ topic: name, partition: partitionIndex, offset: committedOffset, metadata: committedMetadata });
      }
    }
    let committed: ErrorCodeValue = ErrorCode.NONE;
    if (entries.length > 0) {
      try {
        await store.offsets.commit(request.groupId, entries, BigInt(Date.now()));
      } catch (error) {
        committed = errorCodeOf(error, logger, `committing offsets of group ${request.groupId}`);
      }
    }
    return {
      topics: request.topics.map(({ name, partitions }) => ({
        name,
        partitions: partitions.map(({ partitionIndex }) => ({
          partitionIndex,
          errorCode: codes.get(key(name, partitionIndex)) ?? committed,
        })),
      })),
    };
  });
}
