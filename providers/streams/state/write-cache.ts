/**
 * The task's write-back cache: processors' writes land here and are read back synchronously before the
 * database (classic-level's getSync). A commit takes the whole cache as one layer (`beginCommit`) and
 * writes it in one batch; writes made while that batch is in flight go to a fresh layer, and reads see
 * the newest layer first.
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

export class WriteCache {
  private live: CacheLayer = new Map();
  private committing: CacheLayer | undefined;

  constructor(private readonly db: TaskDatabase) {}

  get size(): number {
    return this.live.size;
  }

  read(key: Buffer): Buffer | undefined {
    const id = key.toString("latin1");
    const entry = this.live.get(id) ?? this.committing?.get(id);
    if (entry) return entry.value ?? undefined;
    return this.db.getSync(key);
  }

  write(key: Buffer, value: Buffer | null, counters?: StoreCounters): void {
    this.live.set(key.toString("latin1"), { key, value, counters });
  }

  /** Whether a write since the last `beginCommit` touched the key. */
  writtenSinceCommitBegan(key: Buffer): boolean {
    return this.live.has(key.toString("latin1"));
  }

  /** Hands the current writes to a commit; later writes start a new layer. */
  beginCommit(): CacheLayer {
    if (this.committing) throw new Error("a commit is already in progress");
    this.committing = this.live;
    this.live = new Map();
    return this.committing;
  }

  endCommit(): void {
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
}
