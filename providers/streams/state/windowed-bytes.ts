/**
 * A window, timestamped_window or session store at the byte level. Each entry (a window or a session) is a
 * data row keyed by esc(key) + suffix, listed in the key's directory row and in the expiry index by end time
 * (layouts in key-layout.ts). Entries whose retention time (a window's start, a session's end) is at or before
 * streamTime - retention are expired, as in Kafka Streams' segmented stores: hidden from reads at once, deleted from
 * disk by the next commit (retention-sweep.ts).
 */

import { escapeKey, encodeTimes, type StoreAreas } from "./key-layout";
import type { StoreContext } from "./store-context";
import { joinSuffixes, locateSuffix, parseSuffixes } from "./suffix-directory";
import type { StoredValue, ValueLayout } from "./value-layout";
import type { StoreCounters } from "./write-cache";

const EMPTY = Buffer.alloc(0);

/** What a suffix means for one store type. */
export interface SuffixLayout {
  readonly length: number;
  /** The time a write advances the store's stream time to: the window start, the session end. */
  observedTime(suffix: Buffer): number;
  /** The time retention is judged on: a window's start, a session's end (Kafka Streams' segment timestamps). */
  retentionTime(suffix: Buffer): number;
}

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

export class WindowedBytes {
  constructor(
    readonly name: string,
    readonly areas: StoreAreas,
    readonly layout: SuffixLayout,
    readonly values: ValueLayout,
    readonly retentionMs: number,
    readonly counters: StoreCounters,
    readonly streamTime: StreamTime,
    private readonly context: StoreContext,
  ) {}

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
    const stored = this.context.cache.read(this.dataKey(escapeKey(key), suffix));
    return stored === undefined ? undefined : this.values.decode(stored);
  }

  /** The suffixes the key's directory lists, in order (expired ones too, until a write or a commit trims them). */
  suffixesOf(key: Buffer): Buffer[] {
    return parseSuffixes(this.context.cache.read(this.directoryKey(escapeKey(key))), this.layout.length);
  }

  /** The key's live entries whose suffix `accept`s, in suffix order. */
  list(key: Buffer, accept: (suffix: Buffer) => boolean): WindowedEntryBytes[] {
    const escapedKey = escapeKey(key);
    const cache = this.context.cache;
    const entries: WindowedEntryBytes[] = [];
    for (const suffix of parseSuffixes(cache.read(this.directoryKey(escapedKey)), this.layout.length)) {
      if (this.isExpired(suffix) || !accept(suffix)) continue;
      const stored = cache.read(this.dataKey(escapedKey, suffix));
      if (stored !== undefined) entries.push({ key, suffix, stored: this.values.decode(stored) });
    }
    return entries;
  }

  /** Returns false (and writes nothing) when the entry is already expired. */
  write(key: Buffer, suffix: Buffer, value: Buffer | null, timestamp: number): boolean {
    if (!this.apply(key, suffix, value, timestamp)) return false;
    this.context.emit({ store: this.name, key: Buffer.concat([key, suffix]), value, timestamp });
    return true;
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
    return true;
  }
}
