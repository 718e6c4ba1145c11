/**
 * The task's record cache in front of a user's key-value, window or session store (Kafka Streams wraps a user's
 * supplier in its CachingKeyValueStore / CachingWindowStore / CachingSessionStore as it wraps its own stores): a
 * processor's updates of one entry (a key, and for a windowed store a window or session: the entry's id is the key's
 * bytes then the suffix the built-in stores use, none for a key-value store) fold in the cache, and reach the user's
 * store, the changelog and the processor's downstream once, when the cache is flushed or evicts the entry. Reads look
 * in the cache first.
 */
import type { Header } from "../../../kernel/contracts/streams/processor";
import type { CachedRecord, CachedStore, RecordCache } from "./record-cache";
import type { StoreContext } from "./store-context";
import type { WindowedFlushListener } from "./windowed-bytes";

/** What the cache writes through to: the user's store and the changelog. */
export interface CacheBackend {
  /** The length of an entry's suffix (its window's or session's times; 0 for a key-value store). */
  readonly suffixLength: number;
  /** The entry's serialized value in the user's store (undefined when it holds none, or it has expired). */
  stored(key: Buffer, suffix: Buffer): Buffer | undefined;
  /** Writes an entry through to the user's store and the changelog; nothing when it has expired. */
  writeThrough(key: Buffer, suffix: Buffer, value: Buffer | null, timestamp: number): void;
}

/** A cached entry, split back into its key and suffix. */
export interface CachedEntry {
  key: Buffer;
  suffix: Buffer;
  record: CachedRecord;
}

export class SuppliedCache implements CachedStore {
  readonly cachedRecordOverhead = 0;
  /** The ids of the entries the cache may hold: an id the cache no longer holds is dropped when next seen. */
  private readonly ids = new Set<string>();
  private listener: WindowedFlushListener | undefined;
  private withOldValues = false;

  constructor(
    private readonly records: RecordCache,
    private readonly backend: CacheBackend,
  ) {}

  forwardOnFlush(listener: WindowedFlushListener, withOldValues: boolean): void {
    this.listener = listener;
    this.withOldValues = withOldValues;
  }

  get(key: Buffer, suffix: Buffer): CachedRecord | undefined {
    return this.records.get(this, Buffer.concat([key, suffix]).toString("latin1"));
  }

  put(key: Buffer, suffix: Buffer, value: Buffer | null, timestamp: number, headers: readonly Header[] | undefined): void {
    const cacheKey = Buffer.concat([key, suffix]);
    const id = cacheKey.toString("latin1");
    if (this.records.update(this, id, value, timestamp, headers)) return;
    this.records.add(this, cacheKey, id, value, timestamp, headers);
    this.ids.add(id);
  }

  /** The entries the cache holds whose key and suffix `accept`s. */
  entries(accept: (key: Buffer, suffix: Buffer) => boolean): CachedEntry[] {
    const found: CachedEntry[] = [];
    for (const id of this.ids) {
      const record = this.records.peek(this, id);
      if (record === undefined) {
        this.ids.delete(id);
        continue;
      }
      const entry = this.split(record);
      if (accept(entry.key, entry.suffix)) found.push(entry);
    }
    return found;
  }

  /**
   * Writes an update the cache lets go of through, and forwards it — a deletion only of an entry the store held (as
   * Kafka Streams' caching stores forward nothing for an entry created and deleted within one flush).
   */
  flushRecord(record: CachedRecord): void {
    this.ids.delete(record.id);
    const { key, suffix } = this.split(record);
    const listener = this.listener;
    const old = listener !== undefined && (record.value === null || this.withOldValues) ? this.backend.stored(key, suffix) : undefined;
    this.backend.writeThrough(key, suffix, record.value, record.timestamp);
    if (listener !== undefined && (record.value !== null || old !== undefined)) {
      listener(key, suffix, record.value, record.timestamp, record.headers, this.withOldValues ? (old ?? null) : null);
    }
  }

  private split(record: CachedRecord): CachedEntry {
    const keyLength = record.key.length - this.backend.suffixLength;
    return { key: record.key.subarray(0, keyLength), suffix: record.key.subarray(keyLength), record };
  }
}

/** The record cache in front of a user's store, unless its caching is off or the task has none (`statestore.cache.max.bytes` 0). */
export function suppliedCache(context: StoreContext, caching: boolean, backend: CacheBackend): SuppliedCache | undefined {
  const records = context.records;
  return caching && records !== undefined ? new SuppliedCache(records, backend) : undefined;
}

/**
 * Merges the cache's entries in range into the user's store's: a cached update replaces the stored entry, a cached
 * deletion removes it. With cached entries, the walk goes in `order`; without, in the user's store's order.
 */
export function overlaid<T extends { id: string }>(stored: T[], cached: readonly (T & { deleted: boolean })[], order: (a: T, b: T) => number): T[] {
  if (cached.length === 0) return stored;
  const merged = new Map(stored.map((entry) => [entry.id, entry]));
  for (const entry of cached) {
    if (entry.deleted) merged.delete(entry.id);
    else merged.set(entry.id, entry);
  }
  return [...merged.values()].sort(order);
}

/** Whether `key` lies in [from, to] by its bytes (an undefined bound is open). */
export const inKeyRange = (key: Buffer, from: Buffer | undefined, to: Buffer | undefined) => (from === undefined || Buffer.compare(key, from) >= 0) && (to === undefined || Buffer.compare(key, to) <= 0);
