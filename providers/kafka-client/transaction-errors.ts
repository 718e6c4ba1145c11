/**
 * How a transactional producer takes each error of its calls, as Kafka's producer does (TransactionManager): retried
 * within the call's time (the coordinator moved or is busy), abortable (this transaction is lost; abort it and go
 * on), or fatal (the producer is done: another instance took the transactional id over, it lacks a permission, or
 * the coordinator and it disagree on the transaction's state; close it, and start a new one if that makes sense).
 */
import { ErrorCode, errorCodeName } from "../kafka-protocol";
import { RETRIABLE_CODES } from "./retriable-error-codes";

export type TransactionErrorKind = "retriable" | "abortable" | "fatal";

/** The producer's calls that can fail, named as Kafka's API is. */
export type TransactionalOperation = "initTransactions" | "send" | "sendOffsetsToTransaction" | "commitTransaction" | "abortTransaction";

export class TransactionError extends Error {
  constructor(
    readonly transactionalId: string,
    readonly operation: TransactionalOperation,
    readonly kind: TransactionErrorKind,
    /** The broker's error code; null when the failure was not one (a lost connection, a timeout, a misuse). */
    readonly errorCode: number | null,
    detail: string,
  ) {
    super(`transactional producer ${transactionalId}: ${operation} failed (${kind}): ${errorCode === null ? detail : `${errorCodeName(errorCode)}${detail ? `, ${detail}` : ""}`}`);
    this.name = "TransactionError";
  }

  /** The producer's epoch was fenced: another producer with the same transactional id started, or its transaction timed out. */
  get fenced(): boolean {
    return this.errorCode === ErrorCode.PRODUCER_FENCED || this.errorCode === ErrorCode.INVALID_PRODUCER_EPOCH;
  }
}

/** Codes every call retries: the coordinator is moving, loading or busy with the id, or a partition's leader moved. */
const RETRIED: ReadonlySet<number> = new Set([
  ...RETRIABLE_CODES,
  ErrorCode.CONCURRENT_TRANSACTIONS,
  ErrorCode.COORDINATOR_NOT_AVAILABLE,
  ErrorCode.NOT_COORDINATOR,
  ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
]);

/** Codes after which the coordinator is to be looked up again. */
export const COORDINATOR_MOVED: ReadonlySet<number> = new Set([ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.NOT_COORDINATOR]);

const FENCED = [ErrorCode.PRODUCER_FENCED, ErrorCode.INVALID_PRODUCER_EPOCH];
/** The producer id the coordinator had for the id is gone (expired, or the producer's state lost): abort, then a new epoch. */
const PRODUCER_ID_LOST = [ErrorCode.UNKNOWN_PRODUCER_ID, ErrorCode.INVALID_PRODUCER_ID_MAPPING];

/** Per call, the codes Kafka's producer takes as abortable and as fatal; a code in neither takes the call's default. */
const KINDS: Record<TransactionalOperation, { abortable: readonly number[]; fatal: readonly number[]; otherwise: TransactionErrorKind }> = {
  // Kafka 4.x lets an initTransactions that lacked a permission be called again once it is granted.
  initTransactions: {
    abortable: [ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, ErrorCode.CLUSTER_AUTHORIZATION_FAILED, ErrorCode.TRANSACTION_ABORTABLE],
    fatal: FENCED,
    otherwise: "fatal",
  },
  send: {
    abortable: [],
    fatal: [...FENCED, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, ErrorCode.CLUSTER_AUTHORIZATION_FAILED],
    otherwise: "abortable",
  },
  sendOffsetsToTransaction: {
    abortable: [...PRODUCER_ID_LOST, ErrorCode.GROUP_AUTHORIZATION_FAILED, ErrorCode.FENCED_INSTANCE_ID, ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.ILLEGAL_GENERATION, ErrorCode.TRANSACTION_ABORTABLE],
    fatal: [...FENCED, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, ErrorCode.INVALID_TXN_STATE, ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT],
    otherwise: "fatal",
  },
  commitTransaction: {
    abortable: [...PRODUCER_ID_LOST, ErrorCode.TRANSACTION_ABORTABLE],
    fatal: [...FENCED, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, ErrorCode.INVALID_TXN_STATE],
    otherwise: "fatal",
  },
  abortTransaction: {
    abortable: [...PRODUCER_ID_LOST, ErrorCode.TRANSACTION_ABORTABLE],
    fatal: [...FENCED, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, ErrorCode.INVALID_TXN_STATE],
    otherwise: "fatal",
  },
};

/** Adding partitions (part of a send) fails the transaction, not the producer, unless the producer itself is refused. */
const ADD_PARTITIONS = { abortable: [...PRODUCER_ID_LOST, ErrorCode.TOPIC_AUTHORIZATION_FAILED, ErrorCode.OPERATION_NOT_ATTEMPTED, ErrorCode.TRANSACTION_ABORTABLE], fatal: [...FENCED, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, ErrorCode.INVALID_TXN_STATE], otherwise: "abortable" as const };

export function isRetried(errorCode: number): boolean {
  return RETRIED.has(errorCode);
}

/** The kind of a code that is not retried, for `operation`; `addingPartitions` for the AddPartitionsToTxn of a send. */
export function kindOf(operation: TransactionalOperation, errorCode: number, addingPartitions = false): TransactionErrorKind {
  const kinds = addingPartitions ? ADD_PARTITIONS : KINDS[operation];
  if (kinds.fatal.includes(errorCode)) return "fatal";
  if (kinds.abortable.includes(errorCode)) return "abortable";
  return kinds.otherwise;
}
