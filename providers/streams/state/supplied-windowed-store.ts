/**
 * Window and session stores whose data lives in a store the user supplies (a WindowBytesStoreSupplier's or a
 * SessionBytesStoreSupplier's), not in the task's LevelDB. As with supplied key-value stores, the processor face and
 * the query face serialize over the user's store, each write also yields a changelog record (keyed and laid out as
 * the built-in stores' are), and the task gets a new store and restores it from its changelog each time it is opened.
 * Sluice keeps the store's stream time and retention itself, as Kafka Streams' wrapping stores leave them to the inner
 * one: windows that start (sessions that end) at or before stream time minus retention are neither returned nor
 * written again, whatever the user's store still holds. Walks keep the order the user's store gives.
 */
import type { Windowed } from "../../../kernel/contracts/streams/dsl/windows";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type {
  KeyValue,
  KeyValueIterator,
  RangeOptions,
  ReadOnlySessionStore,
  ReadOnlyWindowStoreOf,
  SessionBytesStore,
  SessionBytesStoreSupplier,
  SessionStore,
  SessionWindow,
  StoreSpec,
  TimestampedWindowedEntry,
  TimestampedWindowStore,
  ValueAndTimestamp,
  WindowBytesStore,
  WindowBytesStoreSupplier,
  WindowedBytesKey,
  WindowedEntry,
  WindowStore,
} from "../../../kernel/contracts/streams/stores";
import { readTime } from "./key-layout";
import { listIterator } from "./key-value-iterator";
import { WindowIterationOverloads } from "./window-iteration";
import type { Header } from "../../../kernel/contracts/streams/processor";
import { inKeyRange, overlaid, suppliedCache, type CacheBackend, type SuppliedCache } from "./supplied-cache";
import type { ExpiringStore, StoreFaces } from "./store-openers";
import type { StoreContext } from "./store-context";
import { sessionSuffixLayout, windowSuffixLayout, type WindowSuffixLayout } from "./suffix-layouts";
import { plainValues, timestampedValues, type ValueLayout } from "./value-layout";
import { plainValueView, timestampedValueView, type ValueView } from "./value-views";
import type { StreamTime } from "./windowed-bytes";

const EARLIEST = Number.MIN_SAFE_INTEGER;
const LATEST = Number.MAX_SAFE_INTEGER;

/** A window's or session's retention over the store's stream time, kept by Sluice for the user's store. */
class Retention implements ExpiringStore {
  constructor(
    readonly streamTime: StreamTime,
    private readonly retentionMs: number,
  ) {}

  /** Moves stream time to `time` (a window start, a session end) and says whether an entry of that time has expired. */
  observe(time: number): boolean {
    this.streamTime.live = Math.max(this.streamTime.live, time);
    return this.expired(time);
  }

  expired(time: number): boolean {
    return time <= this.streamTime.live - this.retentionMs;
  }

  /** The earliest time an entry still lives at, no earlier than `time`. */
  earliestLive(time: number): number {
    return Math.max(time, this.streamTime.live - this.retentionMs + 1, EARLIEST);
  }

  /** Nothing to delete: the user's store drops what it keeps no longer. */
  async sweep(): Promise<number> {
    return 0;
  }
}

const bound = <K>(keySerde: Serde<K>, key: K | undefined) => (key === undefined || key === null ? undefined : keySerde.serialize(key));

/** What a supplied store is built on besides the user's store. */
interface SuppliedWiring<K, V> {
  keySerde: Serde<K>;
  valueSerde: Serde<V>;
  retention: Retention;
  context: StoreContext;
  /** Whether the task's record cache is in front of the store (it is not for a store that retains duplicates). */
  caching: boolean;
}

interface FoundWindow {
  /** The key's bytes, then the window's suffix (latin1). */
  id: string;
  key: Buffer;
  start: number;
  value: Buffer;
}

/** A user's window store under a value layout and Sluice's retention, typed by serdes and a value view, behind the record cache. */
class SuppliedWindows<K, V, Found, Entry> extends WindowIterationOverloads<K, Found> implements CacheBackend {
  /** The next duplicate's number, for changelog keys of a store that retains duplicates (restores continue it). */
  private nextSequence = 0;
  private readonly keySerde: Serde<K>;
  private readonly valueSerde: Serde<V>;
  private readonly retention: Retention;
  protected readonly context: StoreContext;
  private readonly cache: SuppliedCache | undefined;

  constructor(
    readonly name: string,
    private readonly bytes: WindowBytesStore,
    private readonly values: ValueLayout,
    private readonly view: ValueView<K, Found, Entry>,
    private readonly layout: WindowSuffixLayout,
    wiring: SuppliedWiring<K, V>,
  ) {
    super();
    ({ keySerde: this.keySerde, valueSerde: this.valueSerde, retention: this.retention, context: this.context } = wiring);
    this.cache = suppliedCache(wiring.context, wiring.caching && !layout.retainsDuplicates, this);
  }

  get suffixLength(): number {
    return this.layout.length;
  }

  get windowSizeMs(): number {
    return this.layout.windowSizeMs;
  }

  fetchRange(key: K, timeFrom: number, timeTo: number): Entry[] {
    const keyBytes = this.keySerde.serialize(key);
    return this.found(keyBytes, keyBytes, timeFrom, timeTo).map(({ start, value }) => this.entry(key, start, value));
  }

  /**
   * The live windows of keys in [keyFrom, keyTo] with a start in [timeFrom, timeTo], as the user's store orders them;
   * with updates in the record cache among them, by start, then key bytes (as Kafka Streams' in-memory store goes).
   */
  found(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): FoundWindow[] {
    const found: FoundWindow[] = [];
    for (const { key, value } of this.bytes.fetchKeyRange(keyFrom, keyTo, this.retention.earliestLive(timeFrom), Math.min(timeTo, LATEST))) {
      if (!this.retention.expired(key.windowStart)) found.push({ id: this.idOf(key.key, key.windowStart), key: key.key, start: key.windowStart, value });
    }
    if (this.cache === undefined) return found;
    const cached = this.cache
      .entries((key, suffix) => {
        const start = readTime(suffix, 0);
        return start >= timeFrom && start <= timeTo && !this.retention.expired(start) && inKeyRange(key, keyFrom, keyTo);
      })
      .map(({ key, suffix, record }) => ({
        id: record.id,
        key,
        start: readTime(suffix, 0),
        value: record.value === null ? record.key : this.values.encode(record.value, record.timestamp),
        deleted: record.value === null,
      }));
    return overlaid(found, cached, (a, b) => a.start - b.start || Buffer.compare(a.key, b.key));
  }

  private idOf(key: Buffer, windowStart: number): string {
    return key.toString("latin1") + this.layout.encode(windowStart).toString("latin1");
  }

  /** See WindowedBytes.forwardOnFlush: the listener gets the windowed key and the values deserialized. */
  forwardOnFlush(listener: (key: Windowed<K>, value: V | null, timestamp: number, headers: readonly Header[] | undefined, oldValue: V | null) => void, withOldValues = false): boolean {
    if (this.cache === undefined) return false;
    const deserialize = (value: Buffer | null) => (value === null ? null : this.valueSerde.deserialize(value));
    this.cache.forwardOnFlush((key, suffix, value, timestamp, headers, oldValue) => {
      const start = readTime(suffix, 0);
      listener({ key: this.keySerde.deserialize(key), windowStart: start, windowEnd: start + this.layout.windowSizeMs }, deserialize(value), timestamp, headers, deserialize(oldValue));
    }, withOldValues);
    return true;
  }

  stored(key: Buffer, suffix: Buffer): Buffer | undefined {
    const windowStart = readTime(suffix, 0);
    const stored = this.retention.expired(windowStart) ? undefined : this.bytes.fetch(key, windowStart);
    return stored === undefined ? undefined : this.values.decode(stored).value;
  }

  writeThrough(key: Buffer, suffix: Buffer, value: Buffer | null, timestamp: number): void {
    const windowStart = readTime(suffix, 0);
    if (this.retention.expired(windowStart)) return;
    this.bytes.put(key, value === null ? null : this.values.encode(value, timestamp), windowStart);
    this.context.emit({ store: this.name, key: Buffer.concat([key, suffix]), value, timestamp });
  }

  entry(key: K, start: number, value: Buffer): Entry {
    return this.view.entry(key, { start, end: start + this.layout.windowSizeMs }, this.values.decode(value));
  }

  decodedKey(key: Buffer): K {
    return this.keySerde.deserialize(key);
  }

  /** An omitted (or null) key is an open bound. */
  serializedKey(key: K | undefined): Buffer | undefined {
    return bound(this.keySerde, key);
  }

  /** Writes the window (a null deletes it; a store that retains duplicates adds one each put and skips nulls). */
  write(key: K, value: V | null, windowStart: number, timestamp: number): void {
    if (this.retention.observe(windowStart) || (value === null && this.layout.retainsDuplicates)) return;
    const keyBytes = this.keySerde.serialize(key);
    const valueBytes = value === null ? null : this.valueSerde.serialize(value);
    const suffix = this.layout.encode(windowStart, this.layout.retainsDuplicates ? this.nextSequence++ : 0);
    if (this.cache !== undefined) this.cache.put(keyBytes, suffix, valueBytes, timestamp, this.context.currentHeaders());
    else this.writeThrough(keyBytes, suffix, valueBytes, timestamp);
  }

  /** A changelog record (key = serialized key + window suffix) put into the user's store. */
  applyChangelog(changelogKey: Buffer, value: Buffer | null, timestamp: number): void {
    const keyLength = changelogKey.length - this.layout.length;
    if (keyLength < 0) throw new Error(`changelog key of store ${this.name} is shorter than its window suffix`);
    const suffix = changelogKey.subarray(keyLength);
    const windowStart = readTime(suffix, 0);
    if (this.layout.retainsDuplicates) this.nextSequence = Math.max(this.nextSequence, this.layout.sequence(suffix) + 1);
    if (this.retention.observe(windowStart) || (value === null && this.layout.retainsDuplicates)) return;
    this.bytes.put(changelogKey.subarray(0, keyLength), value === null ? null : this.values.encode(value, timestamp), windowStart);
  }

  protected fetchWindow(key: K, windowStart: number): Found | undefined {
    if (this.retention.expired(windowStart)) return undefined;
    const keyBytes = this.keySerde.serialize(key);
    const cached = this.cache?.get(keyBytes, this.layout.encode(windowStart));
    if (cached !== undefined) return cached.value === null ? undefined : this.view.found({ value: cached.value, timestamp: this.values.timestamped ? cached.timestamp : -1 });
    const stored = this.bytes.fetch(keyBytes, windowStart);
    return stored === undefined ? undefined : this.view.found(this.values.decode(stored));
  }

  protected startsOf(key: K, timeFrom: number, timeTo: number, backward: boolean): KeyValueIterator<number, Found> {
    const keyBytes = this.keySerde.serialize(key);
    const entries = this.found(keyBytes, keyBytes, timeFrom, timeTo).map(({ start, value }) => ({ key: start, value: this.view.found(this.values.decode(value)) }));
    return listIterator(backward ? entries.reverse() : entries);
  }

  protected windowsOf(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number, backward: boolean): KeyValueIterator<Windowed<K>, Found> {
    const entries = this.found(this.serializedKey(keyFrom), this.serializedKey(keyTo), timeFrom, timeTo).map(({ key, start, value }) => ({
      key: { key: this.keySerde.deserialize(key), windowStart: start, windowEnd: start + this.layout.windowSizeMs },
      value: this.view.found(this.values.decode(value)),
    }));
    return listIterator(backward ? entries.reverse() : entries);
  }
}

class SuppliedWindowStore<K, V> extends SuppliedWindows<K, V, V, WindowedEntry<K, V>> implements WindowStore<K, V> {
  readonly type = "window";

  constructor(name: string, bytes: WindowBytesStore, layout: WindowSuffixLayout, wiring: SuppliedWiring<K, V>) {
    super(name, bytes, plainValues, plainValueView(wiring.valueSerde), layout, wiring);
  }

  put(key: K, value: V | null, windowStart: number): void {
    this.write(key, value, windowStart, this.context.currentTimestamp());
  }
}

class SuppliedTimestampedWindowStore<K, V> extends SuppliedWindows<K, V, ValueAndTimestamp<V>, TimestampedWindowedEntry<K, V>> implements TimestampedWindowStore<K, V> {
  readonly type = "timestamped_window";

  constructor(name: string, bytes: WindowBytesStore, layout: WindowSuffixLayout, wiring: SuppliedWiring<K, V>) {
    super(name, bytes, timestampedValues, timestampedValueView(wiring.valueSerde), layout, wiring);
  }

  put(key: K, value: V | null, windowStart: number, timestamp: number): void {
    this.write(key, value, windowStart, timestamp);
  }
}

/** At most `limit` of `entries`, as an async walk (queries read the user's store as it is). */
async function* limited<T>(entries: readonly T[], options: RangeOptions): AsyncIterable<T> {
  yield* entries.slice(0, options.limit ?? entries.length);
}

class SuppliedReadOnlyWindowStore<K, Found, Entry> implements ReadOnlyWindowStoreOf<K, Found, Entry> {
  constructor(private readonly store: SuppliedWindows<K, unknown, Found, Entry>) {}

  async fetch(key: K, windowStart: number): Promise<Found | undefined> {
    return this.store.fetch(key, windowStart);
  }

  fetchTimeRange(key: K, timeFrom: number, timeTo: number, options: RangeOptions = {}): AsyncIterable<Entry> {
    return limited(this.store.fetchRange(key, timeFrom, timeTo), options);
  }

  fetchKeyRange(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number, options: RangeOptions = {}): AsyncIterable<Entry> {
    const found = this.store.found(this.store.serializedKey(keyFrom), this.store.serializedKey(keyTo), timeFrom, timeTo);
    return limited(found.map(({ key, start, value }) => this.store.entry(this.store.decodedKey(key), start, value)), options);
  }

  fetchAll(timeFrom: number, timeTo: number, options: RangeOptions = {}): AsyncIterable<Entry> {
    return this.fetchKeyRange(undefined, undefined, timeFrom, timeTo, options);
  }

  async approximateNumEntries(): Promise<number> {
    return this.store.found(undefined, undefined, EARLIEST, LATEST).length;
  }
}

/** A user's session store under Sluice's retention, typed by serdes, behind the record cache. */
class SuppliedSessionStore<K, V> implements SessionStore<K, V>, CacheBackend {
  readonly type = "session";
  readonly suffixLength = sessionSuffixLayout.length;
  private readonly cache: SuppliedCache | undefined;

  constructor(
    readonly name: string,
    private readonly bytes: SessionBytesStore,
    private readonly wiring: SuppliedWiring<K, V>,
  ) {
    this.cache = suppliedCache(wiring.context, wiring.caching, this);
  }

  private get keySerde(): Serde<K> {
    return this.wiring.keySerde;
  }

  private get valueSerde(): Serde<V> {
    return this.wiring.valueSerde;
  }

  private get retention(): Retention {
    return this.wiring.retention;
  }

  private get context(): StoreContext {
    return this.wiring.context;
  }

  /** A null value removes the session. */
  put(session: SessionWindow<K>, value: V | null): void {
    if (this.retention.observe(session.end)) return;
    const keyBytes = this.keySerde.serialize(session.key);
    const valueBytes = value === null ? null : this.valueSerde.serialize(value);
    const suffix = sessionSuffixLayout.encode(session.start, session.end);
    const timestamp = this.context.currentTimestamp();
    if (this.cache !== undefined) this.cache.put(keyBytes, suffix, valueBytes, timestamp, this.context.currentHeaders());
    else this.writeThrough(keyBytes, suffix, valueBytes, timestamp);
  }

  /** See WindowedBytes.forwardOnFlush: the listener gets the session's key and values deserialized, with the session's end as timestamp. */
  forwardOnFlush(listener: (key: Windowed<K>, value: V | null, timestamp: number, headers: readonly Header[] | undefined, oldValue: V | null) => void, withOldValues = false): boolean {
    if (this.cache === undefined) return false;
    const deserialize = (value: Buffer | null) => (value === null ? null : this.valueSerde.deserialize(value));
    this.cache.forwardOnFlush((key, suffix, value, _timestamp, headers, oldValue) => {
      const { start, end } = sessionSuffixLayout.bounds(suffix);
      listener({ key: this.keySerde.deserialize(key), windowStart: start, windowEnd: end }, deserialize(value), end, headers, deserialize(oldValue));
    }, withOldValues);
    return true;
  }

  stored(key: Buffer, suffix: Buffer): Buffer | undefined {
    const { start, end } = sessionSuffixLayout.bounds(suffix);
    return this.retention.expired(end) ? undefined : this.bytes.fetchSession(key, start, end);
  }

  writeThrough(key: Buffer, suffix: Buffer, value: Buffer | null, timestamp: number): void {
    const { start, end } = sessionSuffixLayout.bounds(suffix);
    if (this.retention.expired(end)) return;
    this.store(key, start, end, value);
    this.context.emit({ store: this.name, key: Buffer.concat([key, suffix]), value, timestamp });
  }

  remove(session: SessionWindow<K>): void {
    this.put(session, null);
  }

  fetchSession(key: K, sessionStart: number, sessionEnd: number): V | undefined {
    const keyBytes = this.keySerde.serialize(key);
    const suffix = sessionSuffixLayout.encode(sessionStart, sessionEnd);
    const cached = this.retention.expired(sessionEnd) ? undefined : this.cache?.get(keyBytes, suffix);
    const stored = cached !== undefined ? cached.value : this.stored(keyBytes, suffix);
    return stored === undefined || stored === null ? undefined : this.valueSerde.deserialize(stored);
  }

  findSessions(key: K, earliestSessionEnd: number, latestSessionStart: number): WindowedEntry<K, V>[];
  findSessions(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEnd: number, latestSessionStart: number): KeyValueIterator<Windowed<K>, V>;
  findSessions(...args: unknown[]): WindowedEntry<K, V>[] | KeyValueIterator<Windowed<K>, V> {
    if (args.length === 3) {
      return this.sessions(args[0] as K, args[0] as K, args[1] as number, args[2] as number).map(({ key, value }) => ({ ...key, value }));
    }
    return listIterator(this.sessions(args[0] as K | undefined, args[1] as K | undefined, args[2] as number, args[3] as number));
  }

  backwardFindSessions(key: K, earliestSessionEnd: number, latestSessionStart: number): KeyValueIterator<Windowed<K>, V>;
  backwardFindSessions(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEnd: number, latestSessionStart: number): KeyValueIterator<Windowed<K>, V>;
  backwardFindSessions(...args: unknown[]): KeyValueIterator<Windowed<K>, V> {
    const [keyFrom, keyTo, earliestSessionEnd, latestSessionStart] = args.length === 3 ? [args[0], ...args] : args;
    return listIterator(this.sessions(keyFrom as K | undefined, keyTo as K | undefined, earliestSessionEnd as number, latestSessionStart as number).reverse());
  }

  fetch(key: K): KeyValueIterator<Windowed<K>, V>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, V>;
  fetch(...args: unknown[]): KeyValueIterator<Windowed<K>, V> {
    const [keyFrom, keyTo] = args.length === 1 ? [args[0], args[0]] : args;
    return listIterator(this.sessions(keyFrom as K | undefined, keyTo as K | undefined, EARLIEST, LATEST));
  }

  backwardFetch(key: K): KeyValueIterator<Windowed<K>, V>;
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, V>;
  backwardFetch(...args: unknown[]): KeyValueIterator<Windowed<K>, V> {
    const [keyFrom, keyTo] = args.length === 1 ? [args[0], args[0]] : args;
    return listIterator(this.sessions(keyFrom as K | undefined, keyTo as K | undefined, EARLIEST, LATEST).reverse());
  }

  /**
   * The live sessions of keys in [keyFrom, keyTo] that end at or after `earliestSessionEnd` and start at or before
   * `latestSessionStart`, as the user's store orders them; with updates in the record cache among them, by end, then
   * key bytes, then start (as Kafka Streams' in-memory store goes).
   */
  sessions(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEnd: number, latestSessionStart: number): KeyValue<Windowed<K>, V>[] {
    const found: FoundSession[] = [];
    const [from, to] = [bound(this.keySerde, keyFrom), bound(this.keySerde, keyTo)];
    for (const { key, value } of this.bytes.findSessions(from, to, this.retention.earliestLive(earliestSessionEnd), Math.min(latestSessionStart, LATEST))) {
      if (!this.retention.expired(key.windowEnd)) found.push({ id: key.key.toString("latin1") + sessionSuffixLayout.encode(key.windowStart, key.windowEnd).toString("latin1"), session: key, value });
    }
    const cached = (this.cache?.entries((key, suffix) => {
      const { start, end } = sessionSuffixLayout.bounds(suffix);
      return end >= earliestSessionEnd && start <= latestSessionStart && !this.retention.expired(end) && inKeyRange(key, from, to);
    }) ?? []).map(({ key, suffix, record }) => {
      const { start, end } = sessionSuffixLayout.bounds(suffix);
      return { id: record.id, session: { key, windowStart: start, windowEnd: end }, value: record.value ?? record.key, deleted: record.value === null };
    });
    const byEnd = (a: FoundSession, b: FoundSession) => a.session.windowEnd - b.session.windowEnd || Buffer.compare(a.session.key, b.session.key) || a.session.windowStart - b.session.windowStart;
    return overlaid(found, cached, byEnd).map(({ session, value }) => ({
      key: { key: this.keySerde.deserialize(session.key), windowStart: session.windowStart, windowEnd: session.windowEnd },
      value: this.valueSerde.deserialize(value),
    }));
  }

  /** A changelog record (key = serialized key + session end and start) put into the user's store. */
  applyChangelog(changelogKey: Buffer, value: Buffer | null): void {
    const keyLength = changelogKey.length - sessionSuffixLayout.length;
    if (keyLength < 0) throw new Error(`changelog key of store ${this.name} is shorter than its session suffix`);
    const { start, end } = sessionSuffixLayout.bounds(changelogKey.subarray(keyLength));
    if (!this.retention.observe(end)) this.store(changelogKey.subarray(0, keyLength), start, end, value);
  }

  private store(key: Buffer, start: number, end: number, value: Buffer | null): void {
    const session: WindowedBytesKey = { key, windowStart: start, windowEnd: end };
    if (value === null) this.bytes.remove(session);
    else this.bytes.put(session, value);
  }
}

interface FoundSession {
  id: string;
  session: WindowedBytesKey;
  value: Buffer;
}

class SuppliedReadOnlySessionStore<K, V> implements ReadOnlySessionStore<K, V> {
  constructor(private readonly store: SuppliedSessionStore<K, V>) {}

  fetch(key: K, options: RangeOptions = {}): AsyncIterable<WindowedEntry<K, V>> {
    return this.fetchKeyRange(key, key, options);
  }

  fetchKeyRange(keyFrom: K | undefined, keyTo: K | undefined, options: RangeOptions = {}): AsyncIterable<WindowedEntry<K, V>> {
    return limited(this.store.sessions(keyFrom, keyTo, EARLIEST, LATEST).map(({ key, value }) => ({ ...key, value })), options);
  }

  async approximateNumEntries(): Promise<number> {
    return this.store.sessions(undefined, undefined, EARLIEST, LATEST).length;
  }
}

/** What a supplied store's faces share with the task: its retention (an expiring store), restores and the user's commit and close. */
function facesOf(
  retention: Retention,
  user: { flush?(): void; close?(): void },
  faces: Pick<StoreFaces, "processor" | "readOnly" | "applyChangelog">,
): StoreFaces {
  return { ...faces, expiring: retention, flush: () => user.flush?.(), close: () => user.close?.() };
}

/** The faces of a window, timestamped_window or session store kept in the user's store of `spec.bytesStoreSupplier`. */
export function openSuppliedWindowedStore(spec: StoreSpec, context: StoreContext, streamTime: StreamTime): StoreFaces {
  const retention = new Retention(streamTime, spec.retentionMs!);
  const wiring: SuppliedWiring<unknown, unknown> = { keySerde: spec.keySerde, valueSerde: spec.valueSerde, retention, context, caching: spec.caching !== false };
  if (spec.type === "session") {
    const bytes = (spec.bytesStoreSupplier as SessionBytesStoreSupplier).get();
    const processor = new SuppliedSessionStore(spec.name, bytes, wiring);
    const readOnly = { type: "session" as const, store: new SuppliedReadOnlySessionStore(processor) };
    return facesOf(retention, bytes, { processor, readOnly, applyChangelog: (key, value) => processor.applyChangelog(key, value) });
  }
  const bytes = (spec.bytesStoreSupplier as WindowBytesStoreSupplier).get();
  const layout = windowSuffixLayout(spec.windowSizeMs!, spec.retainDuplicates === true);
  if (spec.type === "timestamped_window") {
    const processor = new SuppliedTimestampedWindowStore(spec.name, bytes, layout, wiring);
    const readOnly = { type: "timestamped_window" as const, store: new SuppliedReadOnlyWindowStore(processor) };
    return facesOf(retention, bytes, { processor, readOnly, applyChangelog: (key, value, timestamp) => processor.applyChangelog(key, value, timestamp) });
  }
  const processor = new SuppliedWindowStore(spec.name, bytes, layout, wiring);
  const readOnly = { type: "window" as const, store: new SuppliedReadOnlyWindowStore(processor) };
  return facesOf(retention, bytes, { processor, readOnly, applyChangelog: (key, value, timestamp) => processor.applyChangelog(key, value, timestamp) });
}
