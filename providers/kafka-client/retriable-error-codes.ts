/** The Kafka error codes worth a retry after a metadata refresh: the leader moved, is electing, or is catching up. */
import { ErrorCode } from "../kafka-protocol";

export const RETRIABLE_CODES: ReadonlySet<number> = new Set([
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  ErrorCode.LEADER_NOT_AVAILABLE,
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.REQUEST_TIMED_OUT,
  ErrorCode.NETWORK_EXCEPTION,
  ErrorCode.NOT_ENOUGH_REPLICAS,
  ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
  ErrorCode.KAFKA_STORAGE_ERROR,
]);
