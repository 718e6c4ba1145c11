/** A key_value or timestamped_key_value store at the byte level: data keyed by the serialized key. */

import type { StoreAreas } from "./key-layout";
import type { ScanRange } from "./level-scan";
import { inScanRange, type PendingRow } from "./overlaid-scan";
import { cachedRecordSize, type CachedRecord, type CachedStore } from "./record-cache";
import type { StoreContext } from "./store-context";
import type { StoredValue, ValueLayout } from "./value-layout";
import type { StoreCounters } from "./write-cache";

/** Told each update the record cache lets go of, once it is written: the processor forwards it downstream. */
export type FlushListener = (key: Buffer, value: Buffer | null, timestamp: number) => void;

/** Whether `bytes` equals `row` from `offset` on; a loop, since keys are short and a native compare costs more. */
function sameBytes(bytes: Buffer, row: Buffer, offset: number): boolean {
  if (row.length - offset !== bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== row[offset + i]) return false;
  return true;
}

/** A key's data row: its key in the database, and that key in latin1 (the caches' map key). */
interface Row {
  dataKey: Buffer;
  id: string;
}

export class KeyValueBytes implements CachedStore {
  private flushListener?: FlushListener;
  /** The last key's row: an aggregation reads a key and writes it straight after. */
  private lastRow: Row | undefined;

  constructor(
    readonly name: string,
    readonly areas: StoreAreas,
    readonly values: ValueLayout,
    readonly counters: StoreCounters,
    private readonly context: StoreContext,
  ) {}

  /** Whether updates are folded in the task's record cache (`statestore.cache.max.bytes` > 0). */
  get cached(): boolean {
    return this.context.records !== undefined;
  }

  dataKey(key: Buffer): Buffer {
    return Buffer.concat([this.areas.data, key]);
  }

  /** The key's newest value: folded in the record cache, written since the last commit, or committed. */
  read(key: Buffer): StoredValue | undefined {
    const { dataKey, id } = this.rowOf(key);
    const record = this.context.records?.get(id);
    if (record !== undefined) return this.cachedValue(record);
    const stored = this.context.cache.read(dataKey, id);
    return stored === undefined ? undefined : this.values.decode(stored);
  }

  /** `read` for an interactive query: the caches keep their order of use and what they hold. */
  peek(key: Buffer): StoredValue | undefined {
    const { dataKey, id } = this.rowOf(key);
    const record = this.context.records?.peek(id);
    if (record !== undefined) return this.cachedValue(record);
    const stored = this.context.cache.peek(dataKey, id);
    return stored === undefined ? undefined : this.values.decode(stored);
  }

  /** The rows of `range` not yet committed, as the database will hold them, sorted by key. */
  pendingRows(range: ScanRange): PendingRow[] {
    const rows = new Map<string, PendingRow>();
    for (const { key, value } of this.context.cache.pending()) if (inScanRange(key, range)) rows.set(key.toString("latin1"), [key, value]);
    for (const record of this.context.records?.values() ?? []) {
      if (record.owner !== this || !inScanRange(record.dataKey, range)) continue;
      rows.set(record.dataKey.toString("latin1"), [record.dataKey, record.value === null ? null : this.values.encode(record.value, record.timestamp)]);
    }
    return [...rows.values()].sort(([a], [b]) => Buffer.compare(a, b));
  }

  write(key: Buffer, value: Buffer | null, timestamp: number): void {
    this.counters.uncommittedWrites++;
    const { dataKey, id } = this.rowOf(key);
    const records = this.context.records;
    if (records === undefined) this.writeThrough(key, dataKey, value, timestamp, id);
    else records.put({ owner: this, key, dataKey, id, value, timestamp, size: cachedRecordSize(dataKey, value) });
  }

  /** Writes without a changelog record: restoring from the changelog. */
  apply(key: Buffer, value: Buffer | null, timestamp: number): void {
    this.counters.uncommittedWrites++;
    const { dataKey, id } = this.rowOf(key);
    this.store(dataKey, value, timestamp, id);
  }

  /**
   * Has the record cache's updates forwarded by `listener` as they are flushed; false when the store has no
   * cache, and the processor forwards each update itself.
   */
  forwardOnFlush(listener: FlushListener): boolean {
    if (!this.cached) return false;
    this.flushListener = listener;
    return true;
  }

  flushRecord({ key, dataKey, id, value, timestamp }: CachedRecord): void {
    this.writeThrough(key, dataKey, value, timestamp, id);
    this.flushListener?.(key, value, timestamp);
  }

  private cachedValue(record: CachedRecord): StoredValue | undefined {
    return record.value === null ? undefined : { value: record.value, timestamp: this.values.timestamped ? record.timestamp : -1 };
  }

  /** The key's row; the last one again when `key` holds the same bytes (compared with the row's own copy). */
  private rowOf(key: Buffer): Row {
    const last = this.lastRow;
    const prefix = this.areas.data.length;
    if (last !== undefined && sameBytes(key, last.dataKey, prefix)) return last;
    const dataKey = this.dataKey(key);
    this.lastRow = { dataKey, id: dataKey.toString("latin1") };
    return this.lastRow;
  }

  private writeThrough(key: Buffer, dataKey: Buffer, value: Buffer | null, timestamp: number, id?: string): void {
    this.store(dataKey, value, timestamp, id);
    this.context.emit({ store: this.name, key, value, timestamp });
  }

  private store(dataKey: Buffer, value: Buffer | null, timestamp: number, id?: string): void {
    this.context.cache.write(dataKey, value === null ? null : this.values.encode(value, timestamp), this.counters, id);
  }
}
