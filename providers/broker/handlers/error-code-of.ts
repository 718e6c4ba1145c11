import { ApiError, ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import type { ComponentLogger } from "../../../kernel/logger";
/** The protocol error code a failure is answered with; unexpected failures are logged. */
export function errorCodeOf(error: unknown, logger: ComponentLogger, what: string): ErrorCodeValue {
  if (error instanceof ApiError) return error.code;
  logger.error(`${what} failed`, { error });
  return ErrorCode.UNKNOWN_SERVER_ERROR;
}
