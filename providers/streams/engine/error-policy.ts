/**
 * The configured answer to a bad record (`processing.error.policy`): `log_and_continue` skips it (counted as
 * dropped), `fail` stops the application with the error recorded.
 */
import type { ConfigValue } from "../../../kernel/contracts/streams/topology-provider";
import type { ComponentLogger } from "../../../kernel/logger";
import type { ErrorPhase } from "./stream-task";

export const ERROR_POLICY_KEY = "processing.error.policy";

export class TaskFailure extends Error {
  override readonly name = "TaskFailure";
  constructor(readonly taskId: string, readonly phase: ErrorPhase, override readonly cause: unknown) {
    super(`task ${taskId} failed in ${phase}: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`);
  }
}

/** Returns the `onError` of a task environment for this configuration. */
export function errorPolicy(config: Readonly<Record<string, ConfigValue>>, logger: ComponentLogger) {
  const policy = config[ERROR_POLICY_KEY] ?? "fail";
  if (policy !== "log_and_continue" && policy !== "fail") {
    throw new Error(`${ERROR_POLICY_KEY} must be 'log_and_continue' or 'fail', got '${String(policy)}'`);
  }
  return (error: unknown, phase: ErrorPhase, taskId: string): void => {
    if (policy === "fail") throw new TaskFailure(taskId, phase, error);
    logger.warn(`skipping a record after a ${phase} error`, { taskId, error: String(error) });
  };
}
