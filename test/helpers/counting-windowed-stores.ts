/**
 * A user's own window and session stores for tests of custom store suppliers (WindowBytesStoreSupplier,
 * SessionBytesStoreSupplier): in memory, ordered as Kafka Streams' in-memory stores order them (windows by start, then
 * key bytes; sessions by end, then key bytes, then start), counting each call.
 */
import type {
  KeyValue,
  SessionBytesStore,
  SessionBytesStoreSupplier,
  WindowBytesStore,
  WindowBytesStoreSupplier,
  WindowedBytesKey,
} from "../../kernel/contracts/streams/stores";

const inKeyRange = (key: Buffer, from: Buffer | undefined, to: Buffer | undefined) =>
  (from === undefined || Buffer.compare(key, from) >= 0) && (to === undefined || Buffer.compare(key, to) <= 0);

export class CountingWindowStore implements WindowBytesStore {
  /** Each window as its key, start and value; duplicates kept when the store retains them. */
  readonly windows: { key: Buffer; start: number; value: Buffer }[] = [];
  readonly calls = { put: 0, fetch: 0, fetchKeyRange: 0, flush: 0, close: 0 };

  constructor(private readonly retainDuplicates = false) {}

  put(key: Buffer, value: Buffer | null, windowStart: number): void {
    this.calls.put++;
    const at = this.windows.findIndex((window) => window.start === windowStart && window.key.equals(key));
    if (at >= 0 && !this.retainDuplicates) this.windows.splice(at, 1);
    if (value === null) return;
    this.windows.push({ key, start: windowStart, value });
    this.windows.sort((a, b) => a.start - b.start || Buffer.compare(a.key, b.key));
  }
  fetch(key: Buffer, windowStart: number): Buffer | undefined {
    this.calls.fetch++;
    return this.windows.find((window) => window.start === windowStart && window.key.equals(key))?.value;
  }
  fetchKeyRange(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): Iterable<KeyValue<WindowedBytesKey, Buffer>> {
    this.calls.fetchKeyRange++;
    return this.windows
      .filter(({ key, start }) => start >= timeFrom && start <= timeTo && inKeyRange(key, keyFrom, keyTo))
      .map(({ key, start, value }) => ({ key: { key, windowStart: start, windowEnd: start }, value }));
  }
  flush(): void {
    this.calls.flush++;
  }
  close(): void {
    this.calls.close++;
  }
}

export class CountingSessionStore implements SessionBytesStore {
  readonly sessions: { session: WindowedBytesKey; value: Buffer }[] = [];
  readonly calls = { put: 0, remove: 0, fetchSession: 0, findSessions: 0, flush: 0, close: 0 };

  private indexOf({ key, windowStart, windowEnd }: WindowedBytesKey): number {
    return this.sessions.findIndex(({ session }) => session.windowStart === windowStart && session.windowEnd === windowEnd && session.key.equals(key));
  }
  put(session: WindowedBytesKey, value: Buffer): void {
    this.calls.put++;
    const at = this.indexOf(session);
    if (at >= 0) this.sessions.splice(at, 1);
    this.sessions.push({ session, value });
    this.sessions.sort((a, b) => a.session.windowEnd - b.session.windowEnd || Buffer.compare(a.session.key, b.session.key) || a.session.windowStart - b.session.windowStart);
  }
  remove(session: WindowedBytesKey): void {
    this.calls.remove++;
    const at = this.indexOf(session);
    if (at >= 0) this.sessions.splice(at, 1);
  }
  fetchSession(key: Buffer, sessionStart: number, sessionEnd: number): Buffer | undefined {
    this.calls.fetchSession++;
    const at = this.indexOf({ key, windowStart: sessionStart, windowEnd: sessionEnd });
    return at >= 0 ? this.sessions[at].value : undefined;
  }
  findSessions(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, earliestSessionEnd: number, latestSessionStart: number): Iterable<KeyValue<WindowedBytesKey, Buffer>> {
    this.calls.findSessions++;
    return this.sessions
      .filter(({ session }) => session.windowEnd >= earliestSessionEnd && session.windowStart <= latestSessionStart && inKeyRange(session.key, keyFrom, keyTo))
      .map(({ session, value }) => ({ key: session, value }));
  }
  flush(): void {
    this.calls.flush++;
  }
  close(): void {
    this.calls.close++;
  }
}

/** A window supplier that keeps the stores it made, for the test to look into. */
export function countingWindowSupplier(name: string, retentionMs: number, windowSizeMs: number, retainDuplicates = false): WindowBytesStoreSupplier & { made: CountingWindowStore[] } {
  const made: CountingWindowStore[] = [];
  return {
    name,
    made,
    get: () => {
      const store = new CountingWindowStore(retainDuplicates);
      made.push(store);
      return store;
    },
    windowSize: () => windowSizeMs,
    retentionPeriod: () => retentionMs,
    retainDuplicates: () => retainDuplicates,
    segmentIntervalMs: () => Math.max(retentionMs / 2, 60_000),
    metricsScope: () => "counting-window",
  };
}

export function countingSessionSupplier(name: string, retentionMs: number): SessionBytesStoreSupplier & { made: CountingSessionStore[] } {
  const made: CountingSessionStore[] = [];
  return {
    name,
    made,
    get: () => {
      const store = new CountingSessionStore();
      made.push(store);
      return store;
    },
    retentionPeriod: () => retentionMs,
    segmentIntervalMs: () => Math.max(retentionMs / 2, 60_000),
    metricsScope: () => "counting-session",
  };
}
