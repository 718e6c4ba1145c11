/**
 * The Kafka error codes the producer tells apart: which are worth a retry after a metadata refresh, and the
 * name of any code for messages (the broker's table, plus codes only a real cluster returns).
 */
import { ErrorCode } from "../kafka-protocol/error-codes";

const CLUSTER_ONLY_CODES = {
  LEADER_NOT_AVAILABLE: 5,
  NETWORK_EXCEPTION: 13,
  NOT_ENOUGH_REPLICAS: 19,
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: 20,
  TOPIC_AUTHORIZATION_FAILED: 29,
  CLUSTER_AUTHORIZATION_FAILED: 31,
  KAFKA_STORAGE_ERROR: 56,
} as const;

const NAMES = new Map<number, string>(Object.entries({ ...ErrorCode, ...CLUSTER_ONLY_CODES }).map(([name, code]) => [code, name]));

export const RETRIABLE_CODES: ReadonlySet<number> = new Set([
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  CLUSTER_ONLY_CODES.LEADER_NOT_AVAILABLE,
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.REQUEST_TIMED_OUT,
  CLUSTER_ONLY_CODES.NETWORK_EXCEPTION,
  CLUSTER_ONLY_CODES.NOT_ENOUGH_REPLICAS,
  CLUSTER_ONLY_CODES.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
  CLUSTER_ONLY_CODES.KAFKA_STORAGE_ERROR,
]);

export const LEADER_NOT_AVAILABLE = CLUSTER_ONLY_CODES.LEADER_NOT_AVAILABLE;

/** `NOT_LEADER_OR_FOLLOWER (6)`, or `error code 99` for a code this table lacks. */
export function errorCodeName(code: number): string {
  const name = NAMES.get(code);
  return name === undefined ? `error code ${code}` : `${name} (${code})`;
}
