/**
 * `restart.on.error`: what a failed application does next. `never` (the default) leaves it in ERROR until someone
 * restarts it; `backoff` restarts it by itself after `restart.backoff.ms`, doubling the wait after each failure that
 * follows a restart up to `restart.backoff.max.ms`. A run that stays up longer than the longest wait counts as
 * recovered: the next failure waits the shortest time again.
 */
import type { StreamsSettings } from "../streams-config";

export class RestartOnError {
  private attempts = 0;
  private lastStart = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Restarts made by this policy since the application was created. */
  restarts = 0;

  private constructor(private readonly enabled: boolean, private readonly initialMs: number, private readonly maxMs: number) {}

  static from(settings: StreamsSettings): RestartOnError {
    const initialMs = settings.get("restart.backoff.ms");
    const maxMs = Math.max(initialMs, settings.get("restart.backoff.max.ms"));
    return new RestartOnError(settings.get("restart.on.error") === "backoff", initialMs, maxMs);
  }

  /** A run started (by anyone). */
  started(now = Date.now()): void {
    this.lastStart = now;
  }

  /**
   * The application failed: schedules `restart` after the backoff when the policy says so, and returns the wait
   * (undefined: no restart).
   */
  failed(restart: () => void, now = Date.now()): number | undefined {
    if (!this.enabled) return undefined;
    this.cancel();
    if (now - this.lastStart > this.maxMs) this.attempts = 0;
    const waitMs = Math.min(this.maxMs, this.initialMs * 2 ** this.attempts);
    this.attempts++;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.restarts++;
      restart();
    }, waitMs);
    this.timer.unref();
    return waitMs;
  }

  /** A stop, restart or close by someone else takes over from a scheduled restart. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
