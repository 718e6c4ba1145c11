import { SessionWindows, TimeWindows, type KeyValue, type SessionBytesStore, type SessionBytesStoreSupplier, type StreamsBuilder, type WindowBytesStore, type WindowBytesStoreSupplier, type WindowedBytesKey } from "sluice";

const inKeyRange = (key: Buffer, from: Buffer | undefined, to: Buffer | undefined) =>
  (from === undefined || Buffer.compare(key, from) >= 0) && (to === undefined || Buffer.compare(key, to) <= 0);

/** A user's own window store: a list kept by start, then key bytes (as Kafka Streams' in-memory store walks). */
class ListWindows implements WindowBytesStore {
  private windows: { key: Buffer; start: number; value: Buffer }[] = [];
  put(key: Buffer, value: Buffer | null, windowStart: number): void {
    this.windows = this.windows.filter((window) => !(window.start === windowStart && window.key.equals(key)));
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

const ownWindows = (name: string, retentionMs: number, sizeMs: number): WindowBytesStoreSupplier => ({
  name,
  get: () => new ListWindows(),
  windowSize: () => sizeMs,
  retentionPeriod: () => retentionMs,
  retainDuplicates: () => false,
  segmentIntervalMs: () => retentionMs,
  metricsScope: () => "own",
});

const ownSessions = (name: string, retentionMs: number): SessionBytesStoreSupplier => ({
  name,
  get: () => new ListSessions(),
  retentionPeriod: () => retentionMs,
  segmentIntervalMs: () => retentionMs,
  metricsScope: () => "own",
});

export default function topology(builder: StreamsBuilder): void {
  // Each word of a value is one record: with the record cache on, one value's updates of a window fold.
  const grouped = builder
    .stream<string, string>("input")
    .flatMapValues((value) => value.split(" "))
    .groupByKey();
  grouped
    .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
    .count({ storeName: "short-retention", storeSupplier: ownWindows("short-retention", 12, 10) })
    .toStream()
    .to("windowed-out", { valueSerde: "long" });
  grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count({ storeName: "other-size", storeSupplier: ownWindows("other-size", 1000, 25) });
  grouped
    .windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 0))
    .count({ storeName: "sessions", storeSupplier: ownSessions("sessions", 100) })
    .toStream()
    .to("sessions-out", { valueSerde: "long" });
}
