/**
 * Failed logins per user name, counted before any hash: after `limit` failures, each within a minute of the one
 * before, logins of that name that are not remembered as verified are refused (429) without a hash until a minute
 * has passed since the last failure. An address where the user logged in within the last day is not refused, so
 * that someone guessing from elsewhere cannot lock the user out.
 */
const WINDOW_MS = 60_000;
const KNOWN_ADDRESS_MS = 24 * 60 * 60_000;
const MAX_ENTRIES = 10_000;

interface UserFailures {
  count: number;
  last: number;
}

export class UserLockout {
  private readonly failures = new Map<string, UserFailures>();
  /** `name\naddress` → when that user last logged in from there. */
  private readonly knownAddresses = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Milliseconds until `name` may try again from `source`; 0 when it may now. */
  lockedFor(name: string, source: string): number {
    const failures = this.failures.get(name);
    const now = Date.now();
    if (!failures || failures.count < this.limit || now - failures.last >= WINDOW_MS) return 0;
    const known = this.knownAddresses.get(`${name}\n${source}`);
    if (known !== undefined && now - known < KNOWN_ADDRESS_MS) return 0;
    return WINDOW_MS - (now - failures.last);
  }

  failed(name: string): void {
    const now = Date.now();
    const previous = this.failures.get(name);
    bound(this.failures, (entry) => now - entry.last >= WINDOW_MS);
    this.failures.set(name, { count: previous && now - previous.last < WINDOW_MS ? previous.count + 1 : 1, last: now });
  }

  succeeded(name: string, source: string): void {
    const now = Date.now();
    bound(this.knownAddresses, (at) => now - at >= KNOWN_ADDRESS_MS);
    this.knownAddresses.set(`${name}\n${source}`, now);
  }
}

/** Keeps a map under MAX_ENTRIES: the stale entries go first, then all. */
function bound<V>(map: Map<string, V>, stale: (value: V) => boolean): void {
  if (map.size < MAX_ENTRIES) return;
  for (const [key, value] of map) if (stale(value)) map.delete(key);
  if (map.size >= MAX_ENTRIES) map.clear();
}
