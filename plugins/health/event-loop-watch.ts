/**
 * How late the event loop has run lately: a timer ticks every `TICK_MS` and records how much later than due it
 * fired; the liveness probe reads the largest lateness of the last `WINDOW_MS`, or the one building up right now
 * (a loop blocked at this moment answers no probe, but one blocked a moment ago does, and must report it).
 */
const TICK_MS = 250;
const WINDOW_MS = 10_000;

export class EventLoopWatch {
  private readonly samples: { at: number; lateMs: number }[] = [];
  private due = 0;
  private timer: NodeJS.Timeout | undefined;

  start(): void {
    this.due = Date.now() + TICK_MS;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The largest lateness of the event loop over the last ten seconds, in milliseconds. */
  maxDelayMs(now = Date.now()): number {
    while (this.samples.length > 0 && this.samples[0].at < now - WINDOW_MS) this.samples.shift();
    const pending = this.timer === undefined ? 0 : Math.max(0, now - this.due);
    return this.samples.reduce((max, sample) => Math.max(max, sample.lateMs), pending);
  }

  private tick(): void {
    const now = Date.now();
    const lateMs = Math.max(0, now - this.due);
    if (lateMs > 0) this.samples.push({ at: now, lateMs });
    this.due = now + TICK_MS;
  }
}
