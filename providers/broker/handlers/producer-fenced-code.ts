import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";

/**
 * PRODUCER_FENCED as a request of `apiVersion` may be answered: versions older than `firstVersion` (before KIP-588
 * gave the fence its own code) get INVALID_PRODUCER_EPOCH, as Kafka answers them.
 */
export function producerFencedAsOf(errorCode: ErrorCodeValue, apiVersion: number, firstVersion: number): ErrorCodeValue {
  return errorCode === ErrorCode.PRODUCER_FENCED && apiVersion < firstVersion ? ErrorCode.INVALID_PRODUCER_EPOCH : errorCode;
}
