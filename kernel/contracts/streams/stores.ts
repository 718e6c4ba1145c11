/**
 * State store interfaces of the streams runtime (Kafka Streams' `state` package).
 *
 * Two faces per store:
 * - processor-facing stores are SYNCHRONOUS (processors are synchronous): reads see the task's uncommitted
 *   writes first, then the committed data; writes are buffered and committed once per polled batch;
 * - query-facing (`ReadOnly*`) stores are asynchronous and see COMMITTED data only (what was written by the
 *   last commit, i.e. at most one polled batch behind the processors). Range results stream from LevelDB
 *   iterators, so memory stays bounded whatever the store's size.
 *
 * Keys are compared as serialized bytes: every key range (from/to, key ranges of window and session
 * queries) is in the byte order of the key serde's output, as in Kafka Streams. All bounds are inclusive;
 * an omitted bound is open. Times are epoch milliseconds.
 */

import type { Windowed } from "./dsl/windows";
import type { Serde } from "./serde";

export const STORE_TYPES = ["key_value", "timestamped_key_value", "versioned_key_value", "window", "timestamped_window", "session"] as const;
export type StoreType = (typeof STORE_TYPES)[number];

/** What a topology declares for each store; the runtime opens the store from it. */
export interface StoreSpec<K = unknown, V = unknown> {
  name: string;
  type: StoreType;
  keySerde: Serde<K>;
  valueSerde: Serde<V>;
  /** window and timestamped_window: the size of every window in the store (required for those types). */
  windowSizeMs?: number;
  /** Processors may range over the store: it keeps an index of its keys in memory (key-value stores). */
  rangeable?: boolean;
  /** False keeps the store's updates out of the record cache. Default true. */
  caching?: boolean;
  /** Restored from its changelog whenever its task is opened: nothing of it is kept locally in between (in-memory stores). */
  inMemory?: boolean;
  /**
   * window and timestamped_window: a key may hold several windows with one start, each put adding one (Kafka Streams'
   * retainDuplicates, what a stream-stream join keeps each side's records in); a null put is skipped.
   */
  retainDuplicates?: boolean;
  /**
   * Configs the store's changelog topic is created with, over those Kafka Streams gives a store of its kind and the
   * application's `topic.*` ones (StoreBuilder.withLoggingEnabled, Materialized's, StreamJoined's).
   */
  changelogConfigs?: Readonly<Record<string, string>>;
  /** False: no changelog topic, no changelog records, no restore (withLoggingDisabled). Default true. */
  logging?: boolean;
  /**
   * The user's store the data lives in instead of the task's LevelDB: a KeyValueBytesStoreSupplier's for key-value
   * stores, a WindowBytesStoreSupplier's for window ones, a SessionBytesStoreSupplier's for session ones
   * (Stores.keyValueStoreBuilder / windowStoreBuilder / sessionStoreBuilder, Materialized's storeSupplier). A new one
   * is got, and restored from its changelog, each time the task is opened.
   */
  bytesStoreSupplier?: BytesStoreSupplier;
  /**
   * window, timestamped_window and session: how long data is kept behind the store's stream time (the latest
   * window start / session end written). Windows that start, and sessions that end, at or before
   * streamTime - retentionMs (as in Kafka Streams) are no longer returned and are deleted at the next commit;
   * writes to them are ignored. Default: one day.
   */
  retentionMs?: number;
  /**
   * versioned_key_value: how long a replaced version stays readable behind the store's stream time (the latest
   * timestamp put), and how late a put may come (Kafka Streams' history retention, which is its grace period too).
   */
  historyRetentionMs?: number;
}

export interface ValueAndTimestamp<V> {
  value: V;
  timestamp: number;
}

export interface KeyValue<K, V> {
  key: K;
  value: V;
}

/** One window of a window store, or one session of a session store. */
export interface WindowedEntry<K, V> {
  key: K;
  /** Inclusive. */
  windowStart: number;
  /** Exclusive for windows (start + size); for sessions the timestamp of the session's last record. */
  windowEnd: number;
  value: V;
}

export interface TimestampedWindowedEntry<K, V> extends WindowedEntry<K, V> {
  timestamp: number;
}

/** A session's identity in a session store: its key and the timestamps of its first and last record. */
export interface SessionWindow<K> {
  key: K;
  start: number;
  end: number;
}

// ---------------------------------------------------------------------------------------------------------
// Processor-facing stores (synchronous)
// ---------------------------------------------------------------------------------------------------------

/**
 * A key-value store a user implements over bytes (Kafka Streams' KeyValueStore<Bytes, byte[]>): keys compare by their
 * bytes (Buffer.compare), as the key serde writes them.
 */
export interface KeyValueBytesStore {
  get(key: Buffer): Buffer | undefined;
  put(key: Buffer, value: Buffer): void;
  /** Returns the value removed. */
  delete(key: Buffer): Buffer | undefined;
  /** Entries with from <= key <= to (an omitted bound is open), in key byte order. */
  range(from: Buffer | undefined, to: Buffer | undefined): Iterable<KeyValue<Buffer, Buffer>>;
  approximateNumEntries(): number;
  /** Called after each commit of the task, its changelog records written. */
  flush?(): void;
  /** Called when the task closes (on a rebalance, a stop, or a crash's restart): the store is not used again. */
  close?(): void;
}

/** Kafka Streams' KeyValueBytesStoreSupplier: a user's own key-value store, for Stores.keyValueStoreBuilder. */
export interface KeyValueBytesStoreSupplier {
  readonly name: string;
  /** A store for one task, each time the task is opened. */
  get(): KeyValueBytesStore;
  metricsScope(): string;
}

/**
 * A window store a user implements over bytes (Kafka Streams' WindowStore<Bytes, byte[]>): each window is a key's
 * bytes and its start; keys compare by their bytes. Values of timestamped window stores are laid out as Kafka Streams
 * lays them out (the 8-byte timestamp, then the value). What the store keeps of windows older than its retention is
 * its own business, as in Kafka Streams: Sluice neither reads nor writes them again.
 */
export interface WindowBytesStore {
  /**
   * Writes the key's window that starts at `windowStart`; null deletes it. A store that retains duplicates adds a
   * window each put (Sluice then never puts null).
   */
  put(key: Buffer, value: Buffer | null, windowStart: number): void;
  /** The value of the key's window that starts at `windowStart`. */
  fetch(key: Buffer, windowStart: number): Buffer | undefined;
  /**
   * The windows of keys in [keyFrom, keyTo] (an omitted bound is open) with timeFrom <= start <= timeTo (Kafka
   * Streams' fetch(keyFrom, keyTo, timeFrom, timeTo); a single key has keyFrom = keyTo), in the order its iteration
   * goes — Sluice keeps it, as Kafka Streams does: Kafka Streams' stores go by start time, then key bytes.
   */
  fetchKeyRange(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, timeFrom: number, timeTo: number): Iterable<KeyValue<WindowedBytesKey, Buffer>>;
  /** Called after each commit of the task, its changelog records written. */
  flush?(): void;
  /** Called when the task closes (on a rebalance, a stop, or a crash's restart): the store is not used again. */
  close?(): void;
}

/** A window's or a session's key in a user's bytes store: the key's bytes and the window's (session's) start and end. */
export interface WindowedBytesKey {
  key: Buffer;
  windowStart: number;
  /** A window's end is its start plus the store's window size; a session's, the timestamp of its last record. */
  windowEnd: number;
}

/** Kafka Streams' WindowBytesStoreSupplier: a user's own window store, for Stores.windowStoreBuilder and Materialized. */
export interface WindowBytesStoreSupplier {
  readonly name: string;
  /** A store for one task, each time the task is opened. */
  get(): WindowBytesStore;
  /** The size of the store's windows: what their ends are computed with. */
  windowSize(): number;
  /** How long windows are kept behind the store's stream time (the latest window start written). */
  retentionPeriod(): number;
  /** Whether a key may hold several windows with one start (the stores of stream-stream joins). */
  retainDuplicates(): boolean;
  /** How the user's store segments its data; Sluice only reports it. */
  segmentIntervalMs(): number;
  metricsScope(): string;
}

/**
 * A session store a user implements over bytes (Kafka Streams' SessionStore<Bytes, byte[]>): each session is a key's
 * bytes with the timestamps of its first and last record.
 */
export interface SessionBytesStore {
  put(session: WindowedBytesKey, value: Buffer): void;
  remove(session: WindowedBytesKey): void;
  fetchSession(key: Buffer, sessionStart: number, sessionEnd: number): Buffer | undefined;
  /**
   * The sessions of keys in [keyFrom, keyTo] (an omitted bound is open) that end at or after `earliestSessionEnd` and
   * start at or before `latestSessionStart` (Kafka Streams' findSessions), in the order its iteration goes — Sluice
   * keeps it, as Kafka Streams does.
   */
  findSessions(keyFrom: Buffer | undefined, keyTo: Buffer | undefined, earliestSessionEnd: number, latestSessionStart: number): Iterable<KeyValue<WindowedBytesKey, Buffer>>;
  flush?(): void;
  close?(): void;
}

/** Kafka Streams' SessionBytesStoreSupplier: a user's own session store, for Stores.sessionStoreBuilder and Materialized. */
export interface SessionBytesStoreSupplier {
  readonly name: string;
  get(): SessionBytesStore;
  /** How long sessions are kept behind the store's stream time (the latest session end written). */
  retentionPeriod(): number;
  segmentIntervalMs(): number;
  metricsScope(): string;
}

export type BytesStoreSupplier = KeyValueBytesStoreSupplier | WindowBytesStoreSupplier | SessionBytesStoreSupplier;

export interface StateStore {
  readonly name: string;
  readonly type: StoreType;
}

/**
 * A processor's walk over a store's entries (Kafka Streams' KeyValueIterator): the keys in range when it was made, in
 * key byte order (or reversed), each value read as the walk reaches it (a key deleted meanwhile is passed over).
 */
export interface KeyValueIterator<K, V> extends IterableIterator<KeyValue<K, V>> {
  /** The key the next step returns, or undefined at the end. */
  peekNextKey(): K | undefined;
  /** Ends the walk early. */
  close(): void;
}

/**
 * The ranges of a key-value store, over its uncommitted writes and its committed data alike. Only stores a processor
 * may range over keep the index of their keys that needs: Processor API stores (StreamsBuilder.addStateStore).
 */
export interface KeyValueRanges<K, Found> {
  /** Entries with from <= key <= to (an omitted bound is open); none when from > to. */
  range(from?: K, to?: K): KeyValueIterator<K, Found>;
  reverseRange(from?: K, to?: K): KeyValueIterator<K, Found>;
  all(): KeyValueIterator<K, Found>;
  reverseAll(): KeyValueIterator<K, Found>;
  /** Entries whose serialized key starts with `prefix` serialized by `prefixKeySerde`. */
  prefixScan<P>(prefix: P, prefixKeySerde: Serde<P>): KeyValueIterator<K, Found>;
  /** How many keys the store holds (exact for stores with ranges, else as of the last commit). */
  approximateNumEntries(): number;
}

export interface KeyValueStore<K, V> extends StateStore, KeyValueRanges<K, V> {
  get(key: K): V | undefined;
  /** A null value deletes the key. */
  put(key: K, value: V | null): void;
  /** Writes only when the key has no value; returns the value that was already there, if any. */
  putIfAbsent(key: K, value: V): V | undefined;
  /** Returns the deleted value, if any. */
  delete(key: K): V | undefined;
  /** put() for each entry, in order. */
  putAll(entries: readonly KeyValue<K, V | null>[]): void;
}

export interface TimestampedKeyValueStore<K, V> extends StateStore, KeyValueRanges<K, ValueAndTimestamp<V>> {
  get(key: K): ValueAndTimestamp<V> | undefined;
  /** A null value deletes the key. */
  put(key: K, value: V | null, timestamp: number): void;
  putIfAbsent(key: K, value: V, timestamp: number): ValueAndTimestamp<V> | undefined;
  delete(key: K): ValueAndTimestamp<V> | undefined;
  /** put() for each entry, in order; a null deletes the key. */
  putAll(entries: readonly KeyValue<K, ValueAndTimestamp<V> | null>[]): void;
}

/**
 * Kafka Streams' iteration of a window store, over its uncommitted writes and its committed data alike. Times are
 * window starts, both bounds inclusive; a key range's omitted bound is open. Walks over several keys go by key
 * byte order, then start time (backward: the reverse); only stores a processor may range over keep the index of
 * their keys that needs (Processor API stores, as for key-value ranges).
 */
export interface WindowIteration<K, Found> {
  /** The value of the key's window that starts at `windowStart`. */
  fetch(key: K, windowStart: number): Found | undefined;
  /** The key's windows with timeFrom <= start <= timeTo, by start time: each as its start and value (Kafka Streams' WindowStoreIterator). */
  fetch(key: K, timeFrom: number, timeTo: number): KeyValueIterator<number, Found>;
  /** The windows of keys in [keyFrom, keyTo] with timeFrom <= start <= timeTo. */
  fetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, Found>;
  backwardFetch(key: K, timeFrom: number, timeTo: number): KeyValueIterator<number, Found>;
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, Found>;
  /** The windows of every key with timeFrom <= start <= timeTo. */
  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, Found>;
  backwardFetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, Found>;
  /** Every window the store holds. */
  all(): KeyValueIterator<Windowed<K>, Found>;
  backwardAll(): KeyValueIterator<Windowed<K>, Found>;
}

export interface WindowStore<K, V> extends StateStore, WindowIteration<K, V> {
  readonly windowSizeMs: number;
  /** A null value deletes the window. Writes to expired windows are ignored. */
  put(key: K, value: V | null, windowStart: number): void;
  /** The key's windows whose start is in [timeFrom, timeTo], by start time, as a list (Sluice's earlier form of fetch(key, timeFrom, timeTo)). */
  fetchRange(key: K, timeFrom: number, timeTo: number): WindowedEntry<K, V>[];
}

export interface TimestampedWindowStore<K, V> extends StateStore, WindowIteration<K, ValueAndTimestamp<V>> {
  readonly windowSizeMs: number;
  put(key: K, value: V | null, windowStart: number, timestamp: number): void;
  fetchRange(key: K, timeFrom: number, timeTo: number): TimestampedWindowedEntry<K, V>[];
}

export interface SessionStore<K, V> extends StateStore {
  /** A null value removes the session. Writes to expired sessions are ignored. */
  put(session: SessionWindow<K>, value: V | null): void;
  remove(session: SessionWindow<K>): void;
  fetchSession(key: K, sessionStart: number, sessionEnd: number): V | undefined;
  /**
   * The key's sessions that end at or after `earliestSessionEnd` and start at or before `latestSessionStart`
   * (the sessions a record at time t with gap g merges with: findSessions(k, t - g, t + g)), ordered by end
   * then start.
   */
  findSessions(key: K, earliestSessionEnd: number, latestSessionStart: number): WindowedEntry<K, V>[];
  /**
   * Kafka Streams' iteration of a session store, over its uncommitted writes and its committed data alike: the
   * sessions of keys in [keyFrom, keyTo] (an omitted bound is open) that end at or after `earliestSessionEnd` and
   * start at or before `latestSessionStart`, by key byte order, then end, then start (backward: the reverse). Walks
   * over several keys need the store's key index (Processor API stores, as for key-value ranges).
   */
  findSessions(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEnd: number, latestSessionStart: number): KeyValueIterator<Windowed<K>, V>;
  /** findSessions(key, …) as an iterator, latest session first. */
  backwardFindSessions(key: K, earliestSessionEnd: number, latestSessionStart: number): KeyValueIterator<Windowed<K>, V>;
  backwardFindSessions(keyFrom: K | undefined, keyTo: K | undefined, earliestSessionEnd: number, latestSessionStart: number): KeyValueIterator<Windowed<K>, V>;
  /** All sessions of the key, or of the keys in [keyFrom, keyTo]. */
  fetch(key: K): KeyValueIterator<Windowed<K>, V>;
  fetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, V>;
  backwardFetch(key: K): KeyValueIterator<Windowed<K>, V>;
  backwardFetch(keyFrom: K | undefined, keyTo: K | undefined): KeyValueIterator<Windowed<K>, V>;
}

/** One version of a versioned store's key (Kafka Streams' VersionedRecord): valid from `timestamp` until `validTo`. */
export interface VersionedRecord<V> {
  value: V;
  timestamp: number;
  /** Undefined for the latest version. */
  validTo?: number;
}

/** What a versioned store's put returns for a version that is now the latest (Kafka Streams' -1). */
export const PUT_RETURN_CODE_VALID_TO_UNDEFINED = -1;
/** What a versioned store's put returns for a record older than the history retention, not put (Kafka Streams' Long.MIN_VALUE). */
export const PUT_RETURN_CODE_NOT_PUT = Number.MIN_SAFE_INTEGER;

/**
 * A store that keeps each key's versions (Kafka Streams' VersionedKeyValueStore, KIP-889): a value is valid from its
 * timestamp until the next version's; a null value (a delete) is a version too, that ends the previous one.
 */
export interface VersionedKeyValueStore<K, V> extends StateStore {
  /**
   * Adds the version of `key` valid from `timestamp` (replacing one with that timestamp). Returns its validTo,
   * PUT_RETURN_CODE_VALID_TO_UNDEFINED when it is the latest, or PUT_RETURN_CODE_NOT_PUT when `timestamp` is older
   * than the store's stream time minus the history retention.
   */
  put(key: K, value: V | null, timestamp: number): number;
  /** Puts a tombstone at `timestamp`; returns the version that was valid then, if any. */
  delete(key: K, timestamp: number): VersionedRecord<V> | undefined;
  /** The latest version, unless it is a delete. */
  get(key: K): VersionedRecord<V> | undefined;
  /**
   * The version valid at `asOfTimestamp`; before the history retention, only the latest version answers (when it is
   * valid then).
   */
  get(key: K, asOfTimestamp: number): VersionedRecord<V> | undefined;
}

export type ProcessorStore =
  | KeyValueStore<unknown, unknown>
  | TimestampedKeyValueStore<unknown, unknown>
  | VersionedKeyValueStore<unknown, unknown>
  | WindowStore<unknown, unknown>
  | TimestampedWindowStore<unknown, unknown>
  | SessionStore<unknown, unknown>;

// ---------------------------------------------------------------------------------------------------------
// Query-facing stores (asynchronous, committed data)
// ---------------------------------------------------------------------------------------------------------

export interface RangeOptions {
  /** At most this many results. */
  limit?: number;
}

export interface ReadOnlyKeyValueStore<K, V> {
  get(key: K): Promise<V | undefined>;
  /** Entries with from <= key <= to in key byte order. */
  range(from?: K, to?: K, options?: RangeOptions): AsyncIterable<KeyValue<K, V>>;
  all(options?: RangeOptions): AsyncIterable<KeyValue<K, V>>;
  /** Number of entries at the last commit. */
  approximateNumEntries(): Promise<number>;
}

/** `Found` is what a point lookup returns, `Entry` what a range yields. */
export interface ReadOnlyWindowStoreOf<K, Found, Entry> {
  /** The value of the key's window that starts at `windowStart`. */
  fetch(key: K, windowStart: number): Promise<Found | undefined>;
  /** The key's windows with timeFrom <= start <= timeTo, by start time. */
  fetchTimeRange(key: K, timeFrom: number, timeTo: number, options?: RangeOptions): AsyncIterable<Entry>;
  /** Windows of keys in [keyFrom, keyTo] with timeFrom <= start <= timeTo, by key then start time. */
  fetchKeyRange(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number, options?: RangeOptions): AsyncIterable<Entry>;
  /** Windows of all keys with timeFrom <= start <= timeTo, by key then start time. */
  fetchAll(timeFrom: number, timeTo: number, options?: RangeOptions): AsyncIterable<Entry>;
  approximateNumEntries(): Promise<number>;
}

export type ReadOnlyWindowStore<K, V> = ReadOnlyWindowStoreOf<K, V, WindowedEntry<K, V>>;
export type ReadOnlyTimestampedWindowStore<K, V> = ReadOnlyWindowStoreOf<K, ValueAndTimestamp<V>, TimestampedWindowedEntry<K, V>>;

export interface ReadOnlySessionStore<K, V> {
  /** All sessions of the key, ordered by end then start. */
  fetch(key: K, options?: RangeOptions): AsyncIterable<WindowedEntry<K, V>>;
  /** All sessions of keys in [keyFrom, keyTo], by key, then end, then start. */
  fetchKeyRange(keyFrom: K | undefined, keyTo: K | undefined, options?: RangeOptions): AsyncIterable<WindowedEntry<K, V>>;
  approximateNumEntries(): Promise<number>;
}

/** A query-facing store with its type, so a query engine can pick the right handler. */
/** A versioned store's committed data, for queries. */
export interface ReadOnlyVersionedKeyValueStore<K, V> {
  /** See VersionedKeyValueStore.get: the latest version, or the one valid at `asOfTimestamp`. */
  get(key: K, asOfTimestamp?: number): Promise<VersionedRecord<V> | undefined>;
  /** Versions at the last commit. */
  approximateNumEntries(): Promise<number>;
}

export type ReadOnlyStore =
  | { type: "key_value"; store: ReadOnlyKeyValueStore<unknown, unknown> }
  | { type: "timestamped_key_value"; store: ReadOnlyKeyValueStore<unknown, ValueAndTimestamp<unknown>> }
  | { type: "versioned_key_value"; store: ReadOnlyVersionedKeyValueStore<unknown, unknown> }
  | { type: "window"; store: ReadOnlyWindowStore<unknown, unknown> }
  | { type: "timestamped_window"; store: ReadOnlyTimestampedWindowStore<unknown, unknown> }
  | { type: "session"; store: ReadOnlySessionStore<unknown, unknown> };

// ---------------------------------------------------------------------------------------------------------
// LevelDB tuning and statistics
// ---------------------------------------------------------------------------------------------------------

/** The classic-level open options a config setter may change (see classic-level's OpenOptions). */
export interface LevelDbOptions {
  cacheSize?: number;
  writeBufferSize?: number;
  blockSize?: number;
  maxOpenFiles?: number;
  blockRestartInterval?: number;
  maxFileSize?: number;
  compression?: boolean;
}

export interface LevelDbConfigContext {
  applicationId: string;
  taskId: string;
  /** The stores that share this task's database. */
  storeNames: string[];
}

/**
 * `leveldb.config.setter`: tunes the options of each task's database before it opens, by changing `options`
 * in place. Configured as `module#export` naming such a function.
 */
export type LevelDbConfigSetter = (options: LevelDbOptions, context: LevelDbConfigContext) => void;

/** Per-store figures for `stats.enable` logging and store metrics. */
export interface StoreStats {
  name: string;
  type: StoreType;
  /** Entries (windows, sessions) at the last commit. */
  entries: number;
  /** LevelDB's estimate of the file system space used by the store's data. */
  approximateSizeBytes: number;
  /** Writes buffered since the last commit. */
  uncommittedWrites: number;
}
