/**
 * A user's own key-value, window and session stores for scenarios of custom store suppliers: in memory, walked as
 * Kafka Streams' in-memory stores walk (keys by their bytes; windows by start, then key bytes; sessions by end, then key
 * bytes, then start). dev.sluice.reference.golden.OwnStores is the same for the Kafka Streams side.
 */
import type { KeyValue, KeyValueBytesStore, KeyValueBytesStoreSupplier, SessionBytesStore, SessionBytesStoreSupplier, WindowBytesStore, WindowBytesStoreSupplier, WindowedBytesKey } from "sluice";

const inKeyRange = (key: Buffer, from: Buffer | undefined, to: Buffer | undefined) =>
  (from === undefined || Buffer.compare(key, from) >= 0) && (to === undefined || Buffer.compare(key, to) <= 0);

/** A user's own window store: a list kept by start, then key bytes (as Kafka Streams' in-memory store walks). */
class ListWindows implements WindowBytesStore {
  private windows: { key: Buffer; start: number; value: Buffer }[] = [];
  constructor(private readonly retainDuplicates: boolean) {}
  put(key: Buffer, value: Buffer | null, windowStart: number): void {
    if (!this.retainDuplicates) this.windows = this.windows.filter((window) => !(window.start === windowStart && window.key.equals(key)));
    if (value !== null) this.windows.push({ key, start: windowStart, value });
    this.windows.sort((a, b) => a.start - b.start || Buffer.compare(a.key, b.key));
  }
  fetch(key: Buffer, windowStart: number): Buffer | undefined {
    return this.windows.find((window) => window.start === windowStart && window.key.equals(key))?.value;
  }
  fetchKeyRange(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): Iterable<KeyValue<WindowedBytesKey, Buffer>> {
    return this.windows
      .filter(({ key, start }) => start >= timeFrom && start <= timeTo && inKeyRange(key, keyFrom, keyTo))
      .map(({ key, start, value }) => ({ key: { key, windowStart: start, windowEnd: start }, value }));
  }
}

/** A user's own session store: a list kept by end, then key bytes, then start (as Kafka Streams' in-memory store walks). */
class ListSessions implements SessionBytesStore {
  private sessions: { session: WindowedBytesKey; value: Buffer }[] = [];
  put(session: WindowedBytesKey, value: Buffer): void {
    this.remove(session);
    this.sessions.push({ session, value });
    this.sessions.sort((a, b) => a.session.windowEnd - b.session.windowEnd || Buffer.compare(a.session.key, b.session.key) || a.session.windowStart - b.session.windowStart);
  }
  remove({ key, windowStart, windowEnd }: WindowedBytesKey): void {
    this.sessions = this.sessions.filter(({ session }) => !(session.windowStart === windowStart && session.windowEnd === windowEnd && session.key.equals(key)));
  }
  fetchSession(key: Buffer, sessionStart: number, sessionEnd: number): Buffer | undefined {
    return this.sessions.find(({ session }) => session.windowStart === sessionStart && session.windowEnd === sessionEnd && session.key.equals(key))?.value;
  }
  findSessions(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, earliestSessionEnd: number, latestSessionStart: number): Iterable<KeyValue<WindowedBytesKey, Buffer>> {
    return this.sessions
      .filter(({ session }) => session.windowEnd >= earliestSessionEnd && session.windowStart <= latestSessionStart && inKeyRange(session.key, keyFrom, keyTo))
      .map(({ session, value }) => ({ key: session, value }));
  }
}

export const ownWindows = (name: string, retentionMs: number, sizeMs: number, retainDuplicates = false): WindowBytesStoreSupplier => ({
  name,
  get: () => new ListWindows(retainDuplicates),
  windowSize: () => sizeMs,
  retentionPeriod: () => retentionMs,
  retainDuplicates: () => retainDuplicates,
  segmentIntervalMs: () => retentionMs,
  metricsScope: () => "own",
});

export const ownSessions = (name: string, retentionMs: number): SessionBytesStoreSupplier => ({
  name,
  get: () => new ListSessions(),
  retentionPeriod: () => retentionMs,
  segmentIntervalMs: () => retentionMs,
  metricsScope: () => "own",
});

/** A user's own key-value store: a Map, walked in key byte order. */
class MapStore implements KeyValueBytesStore {
  private readonly entries = new Map<string, Buffer>();
  get(key: Buffer): Buffer | undefined {
    return this.entries.get(key.toString("latin1"));
  }
  put(key: Buffer, value: Buffer): void {
    this.entries.set(key.toString("latin1"), value);
  }
  delete(key: Buffer): Buffer | undefined {
    const removed = this.get(key);
    this.entries.delete(key.toString("latin1"));
    return removed;
  }
  range(from: Buffer | undefined, to: Buffer | undefined): Iterable<KeyValue<Buffer, Buffer>> {
    return [...this.entries]
      .map(([key, value]) => ({ key: Buffer.from(key, "latin1"), value }))
      .filter(({ key }) => (from === undefined || Buffer.compare(key, from) >= 0) && (to === undefined || Buffer.compare(key, to) <= 0))
      .sort((a, b) => Buffer.compare(a.key, b.key));
  }
  approximateNumEntries(): number {
    return this.entries.size;
  }
}

export const ownKeyValues = (name: string): KeyValueBytesStoreSupplier => ({ name, get: () => new MapStore(), metricsScope: () => "own" });
