/**
 * Query-facing key_value and timestamped_key_value stores: over the committed data, or, when the store has a
 * record cache, through it and the writes not yet committed.
 */

import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { KeyValue, RangeOptions, ReadOnlyKeyValueStore } from "../../../kernel/contracts/streams/stores";
import { prefixEnd } from "./key-layout";
import { isAsciiText, takesTextKeys, type KeyValueBytes } from "./key-value-bytes";
import { scanRange, type ScanRange } from "./level-scan";
import { overlaidScan } from "./overlaid-scan";
import type { StoredValue } from "./value-layout";
import type { TaskDatabase } from "./write-cache";

export class LevelReadOnlyKeyValueStore<K, Found> implements ReadOnlyKeyValueStore<K, Found> {
  private readonly textKeys: boolean;

  constructor(
    private readonly db: TaskDatabase,
    private readonly bytes: KeyValueBytes,
    private readonly keySerde: Serde<K>,
    private readonly found: (stored: StoredValue) => Found,
  ) {
    this.textKeys = takesTextKeys(bytes, keySerde as Serde<unknown>);
  }

  // A point read is a few microseconds in LevelDB's cache: read it synchronously rather than pay a thread-pool hop.
  async get(key: K): Promise<Found | undefined> {
    if (this.bytes.cached) {
      // An ASCII string key is looked up as the text it is, as the processors write it: no bytes, unless the database is read.
      const newest = this.bytes.peek(this.textKeys && isAsciiText(key) ? key : this.keySerde.serialize(key));
      return newest === undefined ? undefined : this.found(newest);
    }
    const stored = this.db.getSync(this.bytes.dataKey(this.keySerde.serialize(key)));
    return stored === undefined ? undefined : this.found(this.bytes.values.decode(stored));
  }

  range(from?: K, to?: K, options: RangeOptions = {}): AsyncIterable<KeyValue<K, Found>> {
    const data = this.bytes.areas.data;
    const range: ScanRange = { gte: from === undefined ? data : this.bytes.dataKey(this.keySerde.serialize(from)) };
    if (to === undefined) range.lt = prefixEnd(data);
    else range.lte = this.bytes.dataKey(this.keySerde.serialize(to));
    const pick = (key: Buffer, value: Buffer) => ({
      key: this.keySerde.deserialize(key.subarray(data.length)),
      value: this.found(this.bytes.values.decode(value)),
    });
    if (this.bytes.cached) return overlaidScan(this.db, range, this.bytes.pendingRows(range), pick, options.limit);
    return scanRange(this.db, range, pick, options.limit);
  }

  all(options: RangeOptions = {}): AsyncIterable<KeyValue<K, Found>> {
    return this.range(undefined, undefined, options);
  }

  async approximateNumEntries(): Promise<number> {
    return this.bytes.counters.entries;
  }
}
