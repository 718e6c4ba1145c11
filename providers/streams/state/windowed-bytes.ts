/**
 * A window, timestamped_window or session store at the byte level. Each entry (a window or a session) is a
 * data row keyed by esc(key) + suffix, listed in the key's directory row and in the expiry index by end time
 * (layouts in key-layout.ts). Entries whose retention time (a window's start, a session's end) is at or before
 * streamTime - retention are expired, as in Kafka Streams' segmented stores: hidden from reads at once, deleted from
 * disk by the next commit (retention-sweep.ts). With caching on (Kafka Streams' CachingWindowStore and
 * CachingSessionStore), a processor's updates of one entry fold in the task's record cache and reach the store, its
 * changelog and the processor's downstream once, when the cache is flushed or evicts the entry.
 */

import type { Header } from "../../../kernel/contracts/streams/processor";
import type { CachedRecord, CachedStore, RecordCache } from "./record-cache";

import { escapeKey, encodeTimes, prefixEnd, unescapeKey, type StoreAreas } from "./key-layout";
import { KeyIndex } from "./key-index";
import { scanRange } from "./level-scan";
import type { StoreContext } from "./store-context";
import { joinSuffixes, locateSuffix, parseSuffixes } from "./suffix-directory";
import type { StoredValue, ValueLayout } from "./value-layout";
import type { StoreCounters, TaskDatabase } from "./write-cache";

const EMPTY = Buffer.alloc(0);

/** What a suffix means for one store type. */
export interface SuffixLayout {
  readonly length: number;
  /** The time a write advances the store's stream time to: the window start, the session end. */
  observedTime(suffix: Buffer): number;
  /** The time retention is judged on: a window's start, a session's end (Kafka Streams' segment timestamps). */
  retentionTime(suffix: Buffer): number;
}

/** Told each update the record cache lets go of, once it is written: the processor forwards it downstream. */
export type WindowedFlushListener = (key: Buffer, suffix: Buffer, value: Buffer | null, timestamp: number, headers: readonly Header[] | undefined, oldValue: Buffer | null) => void;

export interface WindowedEntryBytes {
  key: Buffer;
  suffix: Buffer;
  stored: StoredValue;
}

export interface StreamTime {
  /** Advanced by every write, restores included. */
  live: number;
  /** As of the last commit: what queries filter with. */
  committed: number;
}

export class WindowedBytes implements CachedStore {
  /** A cached record's key (serialized key + suffix) is the row key without this prefix. */
  readonly cachedRecordOverhead: number;
  /** The task's record cache, unless the store's caching is off. */
  private readonly records: RecordCache | undefined;
  /**
   * The suffixes (latin1) of each key's (latin1) entries that may be in the record cache, so a key's listing finds
   * them without a walk over the cache; an entry the cache no longer holds is dropped when next seen.
   */
  private readonly cachedSuffixes = new Map<string, Set<string>>();
  private flushListener?: WindowedFlushListener;
  private flushOldValues = false;
  /** The store's keys, for processors' walks over several keys: kept when the store is rangeable (see indexKeys). */
  private index: KeyIndex | undefined;

  constructor(
    readonly name: string,
    readonly areas: StoreAreas,
    readonly layout: SuffixLayout,
    readonly values: ValueLayout,
    readonly retentionMs: number,
    readonly counters: StoreCounters,
    readonly streamTime: StreamTime,
    private readonly context: StoreContext,
    caching = true,
  ) {
    this.records = caching ? context.records : undefined;
    this.cachedRecordOverhead = areas.data.length;
  }

  /** Whether updates are folded in the task's record cache (`statestore.cache.max.bytes` > 0, and the store's caching on). */
  get cached(): boolean {
    return this.records !== undefined;
  }

  /**
   * Has the record cache's updates forwarded by `listener` as they are flushed; false when the store has no cache,
   * and the processor forwards each update itself.
   */
  forwardOnFlush(listener: WindowedFlushListener, withOldValues = false): boolean {
    if (!this.cached) return false;
    this.flushListener = listener;
    this.flushOldValues = withOldValues;
    return true;
  }

  /** The latest retention time that has expired at `streamTime`. */
  cutoff(streamTime: number): number {
    return streamTime - this.retentionMs;
  }

  isExpired(suffix: Buffer, streamTime = this.streamTime.live): boolean {
    return this.layout.retentionTime(suffix) <= this.cutoff(streamTime);
  }

  dataKey(escapedKey: Buffer, suffix: Buffer): Buffer {
    return Buffer.concat([this.areas.data, escapedKey, suffix]);
  }

  directoryKey(escapedKey: Buffer): Buffer {
    return Buffer.concat([this.areas.directory, escapedKey]);
  }

  expiryKey(escapedKey: Buffer, suffix: Buffer): Buffer {
    return Buffer.concat([this.areas.expiry, encodeTimes(this.layout.retentionTime(suffix)), escapedKey, suffix]);
  }

  read(key: Buffer, suffix: Buffer): StoredValue | undefined {
    if (this.isExpired(suffix)) return undefined;
    const record = this.records?.get(this, Buffer.concat([key, suffix]).toString("latin1"));
    return record !== undefined ? this.cachedValue(record) : this.storedValue(escapeKey(key), suffix);
  }

  /** The key's live entries whose suffix `accept`s, in suffix order: those in the record cache over those stored. */
  list(key: Buffer, accept: (suffix: Buffer) => boolean): WindowedEntryBytes[] {
    const escapedKey = escapeKey(key);
    const entries: WindowedEntryBytes[] = [];
    for (const suffix of this.suffixesOf(key, escapedKey)) {
      if (this.isExpired(suffix) || !accept(suffix)) continue;
      const record = this.records?.get(this, Buffer.concat([key, suffix]).toString("latin1"));
      const stored = record !== undefined ? this.cachedValue(record) : this.storedValue(escapedKey, suffix);
      if (stored !== undefined) entries.push({ key, suffix, stored });
    }
    return entries;
  }

  /** Keeps an index of the store's keys from now on, starting from the keys the database lists entries of. */
  async indexKeys(db: TaskDatabase): Promise<void> {
    const index = new KeyIndex();
    const prefix = this.areas.directory.length;
    const range = { gte: this.areas.directory, lt: prefixEnd(this.areas.directory) };
    for await (const id of scanRange(db, range, (rowKey) => unescapeKey(rowKey, prefix).key.toString("latin1"))) index.add(id);
    this.index = index;
  }

  /** The keys (latin1) in [from, to], in byte order or reversed, that have entries now (some may have expired). */
  keyIds(from: Buffer | undefined, to: Buffer | undefined, reverse: boolean): string[] {
    if (this.index === undefined) throw new Error(`store ${this.name} keeps no key index: only Processor API stores (StreamsBuilder.addStateStore) offer walks over several keys`);
    return this.index.range(from?.toString("latin1"), to?.toString("latin1"), reverse);
  }

  /** Returns false (and writes nothing) when the entry is already expired. */
  write(key: Buffer, suffix: Buffer, value: Buffer | null, timestamp: number): boolean {
    const records = this.records;
    if (records === undefined) return this.writeThrough(key, suffix, value, timestamp);
    this.streamTime.live = Math.max(this.streamTime.live, this.layout.observedTime(suffix));
    if (this.isExpired(suffix)) return false;
    this.counters.uncommittedWrites++;
    const cacheKey = Buffer.concat([key, suffix]);
    const id = cacheKey.toString("latin1");
    const headers = this.context.currentHeaders();
    if (records.update(this, id, value, timestamp, headers)) return true;
    records.add(this, cacheKey, id, value, timestamp, headers);
    const keyId = key.toString("latin1");
    this.index?.add(keyId);
    let suffixes = this.cachedSuffixes.get(keyId);
    if (suffixes === undefined) this.cachedSuffixes.set(keyId, (suffixes = new Set()));
    suffixes.add(suffix.toString("latin1"));
    return true;
  }

  /**
   * Writes an update the record cache lets go of through to the store and its changelog, and forwards it — a
   * deletion only of an entry the store held (Kafka Streams' caching stores forward nothing for an entry created
   * and deleted within one flush).
   */
  flushRecord({ key: cacheKey, value, timestamp, headers }: CachedRecord): void {
    const keyLength = cacheKey.length - this.layout.length;
    const key = cacheKey.subarray(0, keyLength);
    const suffix = cacheKey.subarray(keyLength);
    const keyId = key.toString("latin1");
    const suffixes = this.cachedSuffixes.get(keyId);
    if (suffixes !== undefined && suffixes.delete(suffix.toString("latin1")) && suffixes.size === 0) this.cachedSuffixes.delete(keyId);
    const listener = this.flushListener;
    const old = listener !== undefined && (value === null || this.flushOldValues) ? this.storedValue(escapeKey(key), suffix) : undefined;
    this.writeThrough(key, suffix, value, timestamp);
    if (listener !== undefined && (value !== null || old !== undefined)) listener(key, suffix, value, timestamp, headers, this.flushOldValues ? (old?.value ?? null) : null);
  }

  private writeThrough(key: Buffer, suffix: Buffer, value: Buffer | null, timestamp: number): boolean {
    if (!this.apply(key, suffix, value, timestamp)) return false;
    this.context.emit({ store: this.name, key: Buffer.concat([key, suffix]), value, timestamp });
    return true;
  }

  private storedValue(escapedKey: Buffer, suffix: Buffer): StoredValue | undefined {
    const stored = this.context.cache.read(this.dataKey(escapedKey, suffix));
    return stored === undefined ? undefined : this.values.decode(stored);
  }

  private cachedValue(record: CachedRecord): StoredValue | undefined {
    return record.value === null ? undefined : { value: record.value, timestamp: this.values.timestamped ? record.timestamp : -1 };
  }

  /**
   * The key's suffixes, stored or in the record cache, in suffix order (expired ones too, until a write or a commit
   * trims them).
   */
  suffixesOf(key: Buffer, escapedKey = escapeKey(key)): Buffer[] {
    const stored = parseSuffixes(this.context.cache.read(this.directoryKey(escapedKey)), this.layout.length);
    const keyId = key.toString("latin1");
    const cached = this.cachedSuffixes.get(keyId);
    if (cached === undefined) return stored;
    const records = this.records!;
    const all = new Map<string, Buffer>();
    for (const suffix of stored) all.set(suffix.toString("latin1"), suffix);
    for (const id of cached) {
      // The cache may have let go of it (a discard on close without commit): forgotten here too.
      if (records.peek(this, keyId + id) === undefined) cached.delete(id);
      else if (!all.has(id)) all.set(id, Buffer.from(id, "latin1"));
    }
    if (cached.size === 0) this.cachedSuffixes.delete(keyId);
    return all.size === stored.length ? stored : [...all.values()].sort(Buffer.compare);
  }

  /** Applies a changelog record (key = serialized key + suffix) without emitting one. */
  applyChangelog(changelogKey: Buffer, value: Buffer | null, timestamp: number): void {
    const keyLength = changelogKey.length - this.layout.length;
    if (keyLength < 0) throw new Error(`changelog key of store ${this.name} is shorter than its window suffix`);
    this.apply(changelogKey.subarray(0, keyLength), changelogKey.subarray(keyLength), value, timestamp);
  }

  private apply(key: Buffer, suffix: Buffer, value: Buffer | null, timestamp: number): boolean {
    this.streamTime.live = Math.max(this.streamTime.live, this.layout.observedTime(suffix));
    if (this.isExpired(suffix)) return false;
    const cache = this.context.cache;
    const escapedKey = escapeKey(key);
    const stored = value === null ? null : this.values.encode(value, timestamp);
    cache.write(this.dataKey(escapedKey, suffix), stored, this.counters);
    this.counters.uncommittedWrites++;

    const directoryKey = this.directoryKey(escapedKey);
    const suffixes = parseSuffixes(cache.read(directoryKey), this.layout.length);
    const live = suffixes.filter((existing) => !this.isExpired(existing));
    let changed = live.length !== suffixes.length;
    const { index, found } = locateSuffix(live, suffix);
    if (stored !== null && !found) {
      live.splice(index, 0, suffix);
      cache.write(this.expiryKey(escapedKey, suffix), EMPTY);
      changed = true;
    } else if (stored === null && found) {
      live.splice(index, 1);
      cache.write(this.expiryKey(escapedKey, suffix), null);
      changed = true;
    }
    if (changed) cache.write(directoryKey, joinSuffixes(live));
    if (this.index !== undefined) {
      const keyId = key.toString("latin1");
      if (live.length > 0) this.index.add(keyId);
      else if (!this.cachedSuffixes.has(keyId)) this.index.remove(keyId);
    }
    return true;
  }
}
