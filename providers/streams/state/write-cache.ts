/**
 * The task's write-back cache: processors' writes land here and are read back synchronously before the
 * database (classic-level's getSync). A commit takes the whole cache as one layer (`beginCommit`) and
 * writes it in one batch; writes made while that batch is in flight go to a fresh layer, and reads see
 * the newest layer first. Committed values, and values read from the database, stay readable in a bounded
 * clean cache (oldest written first out), so hot keys are not read from LevelDB again after each commit.
 */

import type { ClassicLevel } from "classic-level";

/** Per-store figures the cache keeps up to date. */
export interface StoreCounters {
  /** Data entries at the last commit. */
  entries: number;
  /** Writes since the last commit. */
  uncommittedWrites: number;
}

export interface CacheEntry {
  key: Buffer;
  /** null: the key is deleted. */
  value: Buffer | null;
  /** Set for data entries, so the commit can count entries; unset for indexes. */
  counters?: StoreCounters;
}

export type CacheLayer = Map<string, CacheEntry>;

export type TaskDatabase = ClassicLevel<Buffer, Buffer>;

export const DEFAULT_CLEAN_CACHE_ENTRIES = 50_000;

export class WriteCache {
  private live: CacheLayer = new Map();
  private committing: CacheLayer | undefined;
  /** Exactly what the database holds for these keys (null: absent). */
  private readonly clean = new Map<string, Buffer | null>();

  constructor(
    private readonly db: TaskDatabase,
    private readonly cleanEntries = DEFAULT_CLEAN_CACHE_ENTRIES,
  ) {}

  get size(): number {
    return this.live.size;
  }

  /** `id`: the key in latin1, when the caller has it. */
  read(key: Buffer, id = key.toString("latin1")): Buffer | undefined {
    const known = this.known(id);
    return known !== undefined ? (known ?? undefined) : this.load(key, id, true);
  }

  /** What the cache holds for the key `id` spells in latin1: its value, null when absent, undefined when only the database knows. */
  known(id: string): Buffer | null | undefined {
    const entry = this.live.get(id) ?? this.committing?.get(id);
    return entry ? entry.value : this.clean.get(id);
  }

  /**
   * The database's value of a key `known` does not know, remembered in the clean cache when `remember`; an
   * interactive query's keys are not the task's, and are not.
   */
  load(key: Buffer, id: string, remember: boolean): Buffer | undefined {
    const stored = this.db.getSync(key);
    if (remember) this.remember(id, stored ?? null);
    return stored;
  }

  write(key: Buffer, value: Buffer | null, counters?: StoreCounters, id = key.toString("latin1")): void {
    this.live.set(id, { key, value, counters });
  }

  /** The writes not yet in the database, older first: those of a commit in flight, then the newer ones. */
  *pending(): IterableIterator<CacheEntry> {
    if (this.committing) yield* this.committing.values();
    yield* this.live.values();
  }

  /** Whether a write since the last `beginCommit` touched the key. */
  writtenSinceCommitBegan(key: Buffer): boolean {
    return this.live.has(key.toString("latin1"));
  }

  /** Whether the database holds the key, when the clean cache knows; undefined when it does not. */
  committedPresence(id: string): boolean | undefined {
    const known = this.clean.get(id);
    return known === undefined ? undefined : known !== null;
  }

  /** Hands the current writes to a commit; later writes start a new layer. */
  beginCommit(): CacheLayer {
    if (this.committing) throw new Error("a commit is already in progress");
    this.committing = this.live;
    this.live = new Map();
    return this.committing;
  }

  /** The committing layer is in the database now. */
  endCommit(): void {
    const layer = this.committing ?? new Map();
    // Entries that would be evicted at once are only forgotten, so no stale value survives.
    let forget = layer.size - this.cleanEntries;
    for (const [id, entry] of layer) {
      if (forget-- > 0) this.clean.delete(id);
      else this.remember(id, entry.value);
    }
    this.committing = undefined;
  }

  /** A failed commit: its writes go back under the newer ones, to be committed next time. */
  abortCommit(): void {
    for (const [id, entry] of this.committing ?? []) if (!this.live.has(id)) this.live.set(id, entry);
    this.committing = undefined;
  }

  /** Drops the writes not yet committed (close without commit). */
  discard(): void {
    this.live = new Map();
  }

  private remember(id: string, value: Buffer | null): void {
    this.clean.delete(id);
    this.clean.set(id, value);
    // Evicting in bulk, a quarter over the bound, keeps this O(1) amortized: a Map scanned from its start
    // after each single eviction would walk past every earlier deletion again.
    if (this.clean.size <= this.cleanEntries + (this.cleanEntries >>> 2)) return;
    let excess = this.clean.size - this.cleanEntries;
    for (const oldest of this.clean.keys()) {
      if (excess-- <= 0) return;
      this.clean.delete(oldest);
    }
  }
}
