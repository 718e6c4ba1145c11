/**
 * Slows authentication per source address. After a failed login, every request with credentials from that address
 * waits before its credentials are checked — correct ones too, and at no hashing cost while it waits — and the 401
 * of each failure waits as well: `baseMs * 2^(n-1)` (at most `maxMs`) for the n-th failure within a minute of the
 * previous one. Guessing passwords from one address gets slow while a single typo costs little; an address with too
 * many requests waiting already is answered 429 at once.
 */
const WINDOW_MS = 60_000;
const MAX_SOURCES = 10_000;
/** Requests of one address waiting out its delay; more get a 429 at once. */
const MAX_WAITING = 64;

interface Failures {
  count: number;
  last: number;
  waiting: number;
}

export class LoginThrottle {
  private readonly sources = new Map<string, Failures>();

  constructor(private readonly baseMs: number, private readonly maxMs: number) {}

  /** How long a request with credentials from `source` waits before they are checked. */
  delayOf(source: string): number {
    const failures = this.sources.get(source);
    if (!failures || Date.now() - failures.last >= WINDOW_MS) return 0;
    return this.delayAfter(failures.count);
  }

  /** Records a failure of `source` and returns how long its answer waits. */
  failed(source: string): number {
    const now = Date.now();
    const previous = this.sources.get(source);
    const count = previous && now - previous.last < WINDOW_MS ? previous.count + 1 : 1;
    if (!previous && this.sources.size >= MAX_SOURCES) this.forgetOld(now);
    this.sources.set(source, { count, last: now, waiting: previous?.waiting ?? 0 });
    return this.delayAfter(count);
  }

  /** Takes a waiting place of `source`; false when it has too many requests waiting. */
  enter(source: string): boolean {
    const failures = this.sources.get(source);
    if (!failures) return true;
    if (failures.waiting >= MAX_WAITING) return false;
    failures.waiting++;
    return true;
  }

  leave(source: string): void {
    const failures = this.sources.get(source);
    if (failures && failures.waiting > 0) failures.waiting--;
  }

  private delayAfter(count: number): number {
    return Math.min(this.maxMs, this.baseMs * 2 ** Math.min(count - 1, 30));
  }

  private forgetOld(now: number): void {
    for (const [source, failures] of this.sources) if (now - failures.last >= WINDOW_MS && failures.waiting === 0) this.sources.delete(source);
    if (this.sources.size >= MAX_SOURCES) this.sources.clear();
  }
}
