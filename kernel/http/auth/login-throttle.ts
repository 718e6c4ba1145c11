/**
 * Slows failed logins per source address: the n-th failure within a minute of the previous one waits
 * `baseMs * 2^(n-1)` (at most `maxMs`) before its 401, so guessing passwords from one address gets slow
 * while a single typo costs little.
 */
const WINDOW_MS = 60_000;
const MAX_SOURCES = 10_000;

interface Failures {
  count: number;
  last: number;
}

export class LoginThrottle {
  private readonly sources = new Map<string, Failures>();

  constructor(private readonly baseMs: number, private readonly maxMs: number) {}

  /** Records a failure of `source` and returns how long its answer waits. */
  failed(source: string): number {
    const now = Date.now();
    const previous = this.sources.get(source);
    const count = previous && now - previous.last < WINDOW_MS ? previous.count + 1 : 1;
    if (!previous && this.sources.size >= MAX_SOURCES) this.forgetOld(now);
    this.sources.set(source, { count, last: now });
    return Math.min(this.maxMs, this.baseMs * 2 ** Math.min(count - 1, 30));
  }

  private forgetOld(now: number): void {
    for (const [source, failures] of this.sources) if (now - failures.last >= WINDOW_MS) this.sources.delete(source);
    if (this.sources.size >= MAX_SOURCES) this.sources.clear();
  }
}
