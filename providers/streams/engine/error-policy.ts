/**
 * The configured answer to a bad record (`processing.error.policy`): `log_and_continue` skips it (counted as
 * dropped), `fail` stops the application with the error recorded, `dead_letter` writes the record to the
 * application's dead-letter topic (see kafka/topics/dead-letters) and goes on.
 */
import type { ComponentLogger } from "../../../kernel/logger";
import type { StreamsSettings } from "../streams-config";
import type { ErrorPhase, FailedRecord } from "./stream-task";

export class TaskFailure extends Error {
  override readonly name = "TaskFailure";
  constructor(readonly taskId: string, readonly phase: ErrorPhase, override readonly cause: unknown) {
    super(`task ${taskId} failed in ${phase}: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`);
  }
}

export type DeadLetterSink = (failed: FailedRecord, error: unknown, phase: ErrorPhase, taskId: string) => void;

export function isDeadLetterPolicy(settings: StreamsSettings): boolean {
  return settings.get("processing.error.policy") === "dead_letter";
}

/** Returns the `onError` of a task environment for this configuration; `deadLetter` receives dead letters. */
export function errorPolicy(settings: StreamsSettings, logger: ComponentLogger, deadLetter?: DeadLetterSink) {
  const policy = settings.get("processing.error.policy");
  if (policy === "dead_letter" && deadLetter === undefined) throw new Error("processing.error.policy 'dead_letter' needs a dead-letter topic, which this runner has not");
  return (error: unknown, phase: ErrorPhase, taskId: string, failed?: FailedRecord): void => {
    if (policy === "fail") throw new TaskFailure(taskId, phase, error);
    if (policy === "dead_letter" && failed !== undefined) return deadLetter!(failed, error, phase, taskId);
    logger.warn(`skipping a record after a ${phase} error`, { taskId, error: String(error) });
  };
}
