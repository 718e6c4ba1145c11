/** A key_value or timestamped_key_value store at the byte level: data keyed by the serialized key. */

import type { StoreAreas } from "./key-layout";
import type { StoreContext } from "./store-context";
import type { StoredValue, ValueLayout } from "./value-layout";
import type { StoreCounters } from "./write-cache";

export class KeyValueBytes {
  constructor(
    readonly name: string,
    readonly areas: StoreAreas,
    readonly values: ValueLayout,
    readonly counters: StoreCounters,
    private readonly context: StoreContext,
  ) {}

  dataKey(key: Buffer): Buffer {
    return Buffer.concat([this.areas.data, key]);
  }

  read(key: Buffer): StoredValue | undefined {
    const stored = this.context.cache.read(this.dataKey(key));
    return stored === undefined ? undefined : this.values.decode(stored);
  }

  write(key: Buffer, value: Buffer | null, timestamp: number): void {
    this.apply(key, value, timestamp);
    this.context.emit({ store: this.name, key, value, timestamp });
  }

  /** Writes without a changelog record: restoring from the changelog. */
  apply(key: Buffer, value: Buffer | null, timestamp: number): void {
    const stored = value === null ? null : this.values.encode(value, timestamp);
    this.context.cache.write(this.dataKey(key), stored, this.counters);
    this.counters.uncommittedWrites++;
  }
}
