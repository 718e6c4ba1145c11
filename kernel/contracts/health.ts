import { token } from "./token";

/** Container token under which components report application states for /health (multiple allowed). */
export const HEALTH_INDICATOR = token<HealthIndicator>("sluice.kernel.HealthIndicator");

export interface HealthIndicator {
  /** application id → state name (RUNNING, ERROR, …). */
  applicationStates(): Record<string, string>;
  /** Applications that run but cannot serve yet (restoring): they make /health report not ready. */
  notReady?(): string[] | Promise<string[]>;
  /** Applications paused by an operator: they answer queries, so they count as ready, and /health lists them. */
  paused?(): string[];
}
