/**
 * The record cache of a task's key-value stores (Kafka Streams' caching layer, `statestore.cache.max.bytes`):
 * a processor's updates to one key are folded here and reach the store, its changelog and the processor's
 * downstream once, when the cache is flushed (at each commit) or when the key is evicted, least recently used
 * first, because the run's cache is full. It holds only updates not yet flushed; a flush empties it.
 */

/** One folded update, as its store will write it. */
export interface CachedRecord {
  readonly owner: CachedStore;
  /** The key as the processor serialized it, and the key of the store's data row. */
  readonly key: Buffer;
  readonly dataKey: Buffer;
  /** The row's key in latin1: the caches' map key. */
  readonly id: string;
  /** null: the key is deleted. */
  readonly value: Buffer | null;
  readonly timestamp: number;
  readonly size: number;
}

/** A store whose updates the cache holds: it writes one when the cache lets go of it. */
export interface CachedStore {
  flushRecord(record: CachedRecord): void;
}

/** The bytes every task cache of one run shares. */
export class CacheBudget {
  usedBytes = 0;

  constructor(readonly maxBytes: number) {}
}

/** What a cached record costs beyond its key and value: the entry, its map slot and the row key's prefix. */
const RECORD_OVERHEAD_BYTES = 96;

export function cachedRecordSize(dataKey: Buffer, value: Buffer | null): number {
  return dataKey.length + (value?.length ?? 0) + RECORD_OVERHEAD_BYTES;
}

export class RecordCache {
  /** By the data row's key (latin1), least recently used first. */
  private records = new Map<string, CachedRecord>();
  /** The most recently used key: using it again needs no move to the end. */
  private newest: string | undefined;
  /**
   * Where eviction goes on: a Map's iterator survives deletions and sees keys added after it, so it is always at or
   * before the least recently used key, and evicting one key at a time never walks past the holes of earlier ones.
   */
  private oldest: IterableIterator<CachedRecord> | undefined;
  private flushing = false;

  constructor(private readonly budget: CacheBudget) {}

  get size(): number {
    return this.records.size;
  }

  /** The key's folded update, now the most recently used; undefined when the cache holds none. */
  get(id: string): CachedRecord | undefined {
    const record = this.records.get(id);
    if (record !== undefined && id !== this.newest) {
      this.records.delete(id);
      this.records.set(id, record);
      this.newest = id;
    }
    return record;
  }

  /** The key's folded update, leaving the order of use as it is. */
  peek(id: string): CachedRecord | undefined {
    return this.records.get(id);
  }

  /** Folds `record` into the key's update; while the run's cache is over its bytes, evicts from this one. */
  put(record: CachedRecord): void {
    const id = record.id;
    const previous = this.records.get(id);
    if (previous !== undefined) {
      this.budget.usedBytes -= previous.size;
      if (id !== this.newest) this.records.delete(id);
    }
    this.records.set(id, record);
    this.newest = id;
    this.budget.usedBytes += record.size;
    while (this.budget.usedBytes > this.budget.maxBytes && !this.flushing && this.evictOldest());
  }

  /** The folded updates, least recently used first. */
  values(): IterableIterator<CachedRecord> {
    return this.records.values();
  }

  /** Writes every folded update through its store, least recently used first, and empties the cache. */
  flush(): void {
    this.flushing = true;
    try {
      // Flushed records go downstream, where processors may update cached stores again: the loop flushes those too.
      while (this.records.size > 0) {
        const flushed = this.records;
        this.reset();
        for (const record of flushed.values()) {
          this.budget.usedBytes -= record.size;
          record.owner.flushRecord(record);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Drops the updates not yet flushed (close without commit). */
  discard(): void {
    for (const record of this.records.values()) this.budget.usedBytes -= record.size;
    this.reset();
  }

  private reset(): void {
    this.records = new Map();
    this.newest = undefined;
    this.oldest = undefined;
  }

  private evictOldest(): boolean {
    this.oldest ??= this.records.values();
    let next = this.oldest.next();
    if (next.done) {
      this.oldest = this.records.values();
      next = this.oldest.next();
      if (next.done) return false;
    }
    const record = next.value;
    this.records.delete(record.id);
    if (record.id === this.newest) this.newest = undefined;
    this.budget.usedBytes -= record.size;
    record.owner.flushRecord(record);
    return true;
  }
}
