/**
 * A versioned_key_value store at the byte level (Kafka Streams' RocksDBVersionedStore, KIP-889): each key has a
 * history of versions, each valid from its timestamp until the next version's; a tombstone is a version without a
 * value. Rows (key-layout.ts's areas, the suffix being a version's validFrom):
 *
 *   data       esc(key) <validFrom>                → 0x01 <value> | 0x00 (a tombstone)
 *   directory  esc(key)                            → the key's validFroms, in order
 *   expiry     <validTo> esc(key) <validFrom>      → (empty): noted when a version gets a successor, or is a tombstone
 *
 * The store's stream time is the latest timestamp put. A put older than stream time - history retention (Kafka
 * Streams' grace period, which for versioned stores is the history retention) is refused. A version whose validTo is
 * at or before stream time - history retention is expired: a read as of a time before that sees only the latest
 * version, and a commit deletes it (a tombstone goes too, once it is that old and has nothing before it to end).
 */

import { PUT_RETURN_CODE_NOT_PUT as NOT_PUT, PUT_RETURN_CODE_VALID_TO_UNDEFINED as VALID_TO_UNDEFINED } from "../../../kernel/contracts/streams/stores";
import { escapeKey, encodeTimes, readTime, TIME_BYTES, type StoreAreas } from "./key-layout";
import type { StoreContext } from "./store-context";
import { joinSuffixes, locateSuffix, parseSuffixes } from "./suffix-directory";
import type { StreamTime } from "./windowed-bytes";
import type { CacheLayer, StoreCounters, TaskDatabase, WriteCache } from "./write-cache";

const VALUE = 1;
const TOMBSTONE = Buffer.from([0]);
const EMPTY = Buffer.alloc(0);

/** One version as stored: its value bytes (null: a tombstone) and validity. */
export interface Version {
  value: Buffer | null;
  validFrom: number;
  /** Undefined for the latest version. */
  validTo: number | undefined;
}

/** Reads a row of the task's database: through the write cache for processors, the committed data for queries. */
export type RowReader = (rowKey: Buffer) => Buffer | undefined;

export class VersionedBytes {
  constructor(
    readonly name: string,
    readonly areas: StoreAreas,
    readonly historyRetentionMs: number,
    readonly counters: StoreCounters,
    readonly streamTime: StreamTime,
    private readonly context: StoreContext,
  ) {}

  /** The latest validTo that has expired at `streamTime`. */
  cutoff(streamTime: number): number {
    return streamTime - this.historyRetentionMs;
  }

  dataKey(escapedKey: Buffer, validFrom: Buffer): Buffer {
    return Buffer.concat([this.areas.data, escapedKey, validFrom]);
  }

  directoryKey(escapedKey: Buffer): Buffer {
    return Buffer.concat([this.areas.directory, escapedKey]);
  }

  /**
   * The version valid at `asOf` (the latest when undefined), as `read` sees the rows and with the stream time given;
   * undefined when there is none, it is a tombstone, or `asOf` is before the history retention and the latest
   * version is not yet valid then.
   */
  versionAt(read: RowReader, key: Buffer, asOf: number | undefined, streamTime: number): Version | undefined {
    const escapedKey = escapeKey(key);
    const validFroms = parseSuffixes(read(this.directoryKey(escapedKey)), TIME_BYTES);
    if (validFroms.length === 0) return undefined;
    let index = validFroms.length - 1;
    if (asOf !== undefined) {
      // The last version valid from asOf or before.
      const { index: at, found } = locateSuffix(validFroms, encodeTimes(asOf));
      index = found ? at : at - 1;
      if (index < 0) return undefined;
      if (asOf < this.cutoff(streamTime) && index !== validFroms.length - 1) return undefined;
    }
    const stored = read(this.dataKey(escapedKey, validFroms[index]));
    if (stored === undefined || stored[0] !== VALUE) return undefined;
    const next = validFroms[index + 1];
    return { value: stored.subarray(1), validFrom: readTime(validFroms[index], 0), validTo: next === undefined ? undefined : readTime(next, 0) };
  }

  /** The version valid at `asOf` (or the latest) as processors see the store. */
  read(key: Buffer, asOf?: number): Version | undefined {
    return this.versionAt((rowKey) => this.context.cache.read(rowKey), key, asOf, this.streamTime.live);
  }

  /**
   * Adds (or replaces) the version of `key` valid from `timestamp`, and its changelog record. Returns the new
   * version's validTo, VALID_TO_UNDEFINED when it is the latest, or NOT_PUT when it is older than the history
   * retention allows.
   */
  put(key: Buffer, value: Buffer | null, timestamp: number): number {
    const validTo = this.apply(key, value, timestamp);
    if (validTo !== NOT_PUT) this.context.emit({ store: this.name, key, value, timestamp });
    return validTo;
  }

  /** put() without a changelog record: restoring from the changelog. */
  apply(key: Buffer, value: Buffer | null, timestamp: number): number {
    if (timestamp < this.cutoff(this.streamTime.live)) return NOT_PUT;
    this.streamTime.live = Math.max(this.streamTime.live, timestamp);
    const cache = this.context.cache;
    const escapedKey = escapeKey(key);
    const directoryKey = this.directoryKey(escapedKey);
    const validFroms = parseSuffixes(cache.read(directoryKey), TIME_BYTES);
    const validFrom = encodeTimes(timestamp);
    const { index, found } = locateSuffix(validFroms, validFrom);
    cache.write(this.dataKey(escapedKey, validFrom), value === null ? TOMBSTONE : Buffer.concat([Buffer.from([VALUE]), value]), this.counters);
    this.counters.uncommittedWrites++;
    if (!found) {
      validFroms.splice(index, 0, validFrom);
      cache.write(directoryKey, joinSuffixes(validFroms));
      // The version before ends where this one starts.
      if (index > 0) this.noteExpiry(escapedKey, validFroms[index - 1], timestamp);
    }
    const next = validFroms[index + 1];
    if (next !== undefined) this.noteExpiry(escapedKey, validFrom, readTime(next, 0));
    else if (value === null) this.noteExpiry(escapedKey, validFrom, timestamp);
    return next === undefined ? VALID_TO_UNDEFINED : readTime(next, 0);
  }

  /**
   * Deletes during a commit the versions expired at `streamTime`, found through the expiry index; an index row whose
   * version has since got a later validTo, or is gone, is only dropped. Returns how many versions went.
   */
  async sweep(db: TaskDatabase, cache: WriteCache, layer: CacheLayer, streamTime: number): Promise<number> {
    const { expiry } = this.areas;
    const cutoff = this.cutoff(streamTime);
    const upTo = Buffer.concat([expiry, encodeTimes(cutoff + 1)]);
    const byKey = new Map<string, { escapedKey: Buffer; validFroms: Set<string> }>();
    for await (const indexKey of db.keys({ gte: expiry, lt: upTo })) {
      layer.set(indexKey.toString("latin1"), { key: indexKey, value: null });
      const escapedKey = indexKey.subarray(expiry.length + TIME_BYTES, indexKey.length - TIME_BYTES);
      const id = escapedKey.toString("latin1");
      const entry = byKey.get(id) ?? { escapedKey, validFroms: new Set<string>() };
      entry.validFroms.add(indexKey.subarray(indexKey.length - TIME_BYTES).toString("latin1"));
      byKey.set(id, entry);
    }
    let expired = 0;
    for (const { escapedKey, validFroms: candidates } of byKey.values()) {
      const directoryKey = this.directoryKey(escapedKey);
      // A directory rewritten since the commit began is the next commit's to sweep.
      if (cache.writtenSinceCommitBegan(directoryKey)) continue;
      const validFroms = parseSuffixes(cache.read(directoryKey), TIME_BYTES);
      const kept = validFroms.filter((validFrom, index) => {
        if (!candidates.has(validFrom.toString("latin1"))) return true;
        const next = validFroms[index + 1];
        const ends = next !== undefined ? readTime(next, 0) : this.isTombstone(cache, escapedKey, validFrom) ? readTime(validFrom, 0) : Infinity;
        return ends > cutoff;
      });
      for (const validFrom of validFroms) {
        if (kept.includes(validFrom)) continue;
        const dataKey = this.dataKey(escapedKey, validFrom);
        layer.set(dataKey.toString("latin1"), { key: dataKey, value: null, counters: this.counters });
        expired++;
      }
      if (kept.length !== validFroms.length) layer.set(directoryKey.toString("latin1"), { key: directoryKey, value: joinSuffixes(kept) });
    }
    return expired;
  }

  private isTombstone(cache: WriteCache, escapedKey: Buffer, validFrom: Buffer): boolean {
    return cache.read(this.dataKey(escapedKey, validFrom))?.[0] !== VALUE;
  }

  private noteExpiry(escapedKey: Buffer, validFrom: Buffer, validTo: number): void {
    this.context.cache.write(Buffer.concat([this.areas.expiry, encodeTimes(validTo), escapedKey, validFrom]), EMPTY);
  }
}
