/**
 * The record cache of a task's key-value stores (Kafka Streams' caching layer, `statestore.cache.max.bytes`):
 * a processor's updates to one key are folded here and reach the store, its changelog and the processor's
 * downstream once, when the cache is flushed (at each commit) or when the key is evicted, least recently used
 * first, because the run's cache is full. It holds only updates not yet flushed; a flush empties it.
 */

import type { Header } from "../../../kernel/contracts/streams/processor";

/** One folded update, as its store will write it. */
export interface CachedRecord {
  readonly owner: CachedStore;
  /** The key as the processor serialized it. */
  readonly key: Buffer;
  /** The key in latin1: its map key in the owner's part of the cache. */
  readonly id: string;
  /** null: the key is deleted. */
  readonly value: Buffer | null;
  readonly timestamp: number;
  /** Those of the record that made the update: it is forwarded with them. */
  readonly headers: readonly Header[] | undefined;
  readonly size: number;
}

/** A store whose updates the cache holds: it writes one when the cache lets go of it. */
export interface CachedStore {
  /** What a cached record of the store costs beyond its key and value (its row key's prefix). */
  readonly cachedRecordOverhead: number;
  flushRecord(record: CachedRecord): void;
}

/**
 * The bytes every task cache of one run shares (of a thread in a worker: its own). `maxBytes` changes as threads come
 * and go (see StreamThreads); a smaller budget evicts at the next put.
 */
export class CacheBudget {
  usedBytes = 0;

  constructor(public maxBytes: number) {}
}

/** What a cached record costs beyond its key, its value and its store's overhead: the entry and its map slot. */
const RECORD_OVERHEAD_BYTES = 96;

/**
 * A cached record is folded in place, and kept in the order of use by links of its own, so that using a key
 * allocates nothing and moves no map slot.
 */
class CacheEntry implements CachedRecord {
  older: CacheEntry | undefined;
  newer: CacheEntry | undefined;
  size: number;

  constructor(
    readonly owner: CachedStore,
    readonly key: Buffer,
    readonly id: string,
    public value: Buffer | null,
    public timestamp: number,
    public headers: readonly Header[] | undefined,
  ) {
    this.size = entrySize(owner, key, value);
  }
}

function entrySize(owner: CachedStore, key: Buffer, value: Buffer | null): number {
  return owner.cachedRecordOverhead + key.length + (value?.length ?? 0) + RECORD_OVERHEAD_BYTES;
}

export class RecordCache {
  /** Each store's records by key (latin1). */
  private records = new Map<CachedStore, Map<string, CacheEntry>>();
  private count = 0;
  /** The ends of the order of use. */
  private oldest: CacheEntry | undefined;
  private newest: CacheEntry | undefined;
  private flushing = false;

  constructor(private readonly budget: CacheBudget) {}

  get size(): number {
    return this.count;
  }

  /** The key's folded update, now the most recently used; undefined when the cache holds none. */
  get(owner: CachedStore, id: string): CachedRecord | undefined {
    const entry = this.records.get(owner)?.get(id);
    if (entry !== undefined) this.use(entry);
    return entry;
  }

  /** The key's folded update, leaving the order of use as it is. */
  peek(owner: CachedStore, id: string): CachedRecord | undefined {
    return this.records.get(owner)?.get(id);
  }

  /** Folds an update into the key's cached one, now the most recently used; false when the cache holds none. */
  update(owner: CachedStore, id: string, value: Buffer | null, timestamp: number, headers: readonly Header[] | undefined): boolean {
    const entry = this.records.get(owner)?.get(id);
    if (entry === undefined) return false;
    this.budget.usedBytes -= entry.size;
    entry.value = value;
    entry.timestamp = timestamp;
    entry.headers = headers;
    entry.size = entrySize(owner, entry.key, value);
    this.use(entry);
    this.spent(entry);
    return true;
  }

  /** Caches the update of a key the cache holds none of (see `update`). */
  add(owner: CachedStore, key: Buffer, id: string, value: Buffer | null, timestamp: number, headers: readonly Header[] | undefined): void {
    let entries = this.records.get(owner);
    if (entries === undefined) {
      entries = new Map();
      this.records.set(owner, entries);
    }
    const entry = new CacheEntry(owner, key, id, value, timestamp, headers);
    entries.set(id, entry);
    this.count++;
    this.append(entry);
    this.spent(entry);
  }

  /** The folded updates, least recently used first. */
  *values(): IterableIterator<CachedRecord> {
    for (let entry = this.oldest; entry !== undefined; entry = entry.newer) yield entry;
  }

  /** Writes every folded update through its store, least recently used first, and empties the cache. */
  flush(): void {
    this.flushing = true;
    try {
      // Flushed records go downstream, where processors may update cached stores again: the loop flushes those too.
      while (this.count > 0) {
        let entry = this.oldest;
        this.reset();
        for (; entry !== undefined; entry = entry.newer) {
          this.budget.usedBytes -= entry.size;
          entry.owner.flushRecord(entry);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Drops the updates not yet flushed (close without commit). */
  discard(): void {
    for (let entry = this.oldest; entry !== undefined; entry = entry.newer) this.budget.usedBytes -= entry.size;
    this.reset();
  }

  private reset(): void {
    this.records = new Map();
    this.count = 0;
    this.oldest = undefined;
    this.newest = undefined;
  }

  /** Counts the entry's bytes; while the run's cache is over its bytes, evicts from this one. */
  private spent(entry: CacheEntry): void {
    const budget = this.budget;
    budget.usedBytes += entry.size;
    while (budget.usedBytes > budget.maxBytes && !this.flushing && this.evictOldest());
  }

  /** Moves `entry` to the newest end. */
  private use(entry: CacheEntry): void {
    if (entry === this.newest) return;
    this.unlink(entry);
    this.append(entry);
  }

  private append(entry: CacheEntry): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest === undefined) this.oldest = entry;
    else this.newest.newer = entry;
    this.newest = entry;
  }

  private unlink(entry: CacheEntry): void {
    if (entry.older === undefined) this.oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.newest = entry.older;
    else entry.newer.older = entry.older;
  }

  private evictOldest(): boolean {
    const entry = this.oldest;
    if (entry === undefined) return false;
    this.unlink(entry);
    this.records.get(entry.owner)!.delete(entry.id);
    this.count--;
    this.budget.usedBytes -= entry.size;
    entry.owner.flushRecord(entry);
    return true;
  }
}
