/** A key_value or timestamped_key_value store at the byte level: data keyed by the serialized key. */

import type { Header } from "../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import { stringSerde } from "../serdes/builtin-serdes";
import type { StoreAreas } from "./key-layout";
import { KeyIndex } from "./key-index";
import { prefixEnd } from "./key-layout";
import { scanRange, type ScanRange } from "./level-scan";
import { inScanRange, type PendingRow } from "./overlaid-scan";
import type { CachedRecord, CachedStore, RecordCache } from "./record-cache";
import type { StoreContext } from "./store-context";
import type { StoredValue, ValueLayout } from "./value-layout";
import type { StoreCounters, TaskDatabase } from "./write-cache";

/**
 * Told each update the record cache lets go of, once it is written: the processor forwards it downstream. `oldValue`
 * is the value the update replaced (null: none), when the listener asked for old values.
 */
export type FlushListener = (key: Buffer, value: Buffer | null, timestamp: number, headers: readonly Header[] | undefined, oldValue: Buffer | null) => void;

/** Whether `key` holds the bytes `id` spells in latin1; a loop, since keys are short and a native compare costs more. */
function spells(key: Buffer, id: string): boolean {
  if (key.length !== id.length) return false;
  for (let i = 0; i < key.length; i++) if (key[i] !== id.charCodeAt(i)) return false;
  return true;
}

/**
 * A key as its bytes, or as text whose UTF-8 bytes are its characters (ASCII; they are then its latin1 string as
 * well): a key the record cache holds needs no Buffer.
 */
export type StoreKey = Buffer | string;

/** A key's data row: its key in the database, and that key in latin1 (the write cache's map key). */
interface Row {
  /** The key's own latin1 string. */
  keyId: string;
  /** The key in the database, made from `id` when first needed: a read the write cache answers needs none. */
  dataKey?: Buffer;
  id: string;
}

/** Whether a store takes ASCII string keys as their text (see StoreKey): string keys, and a record cache, which holds keys by their text. */
export function takesTextKeys(bytes: KeyValueBytes, keySerde: Serde<unknown>): boolean {
  return keySerde === stringSerde && bytes.cached;
}

/** Whether `key` is a string of ASCII characters: a StoreKey as it is, for a store that takes text keys. */
export function isAsciiText(key: unknown): key is string {
  if (typeof key !== "string") return false;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 0x7f) return false;
  return true;
}

function keyBytes(key: StoreKey): Buffer {
  return typeof key === "string" ? Buffer.from(key, "latin1") : key;
}

export class KeyValueBytes implements CachedStore {
  /** A cached record's key is the row key without this prefix. */
  readonly cachedRecordOverhead: number;
  private readonly dataPrefixId: string;
  private flushListener?: FlushListener;
  private flushOldValues = false;
  /** The last key given as bytes, in latin1, and the last row: an aggregation reads a key and writes it straight after. */
  private lastId = "";
  private lastRow: Row | undefined;
  /** The store's keys, for processors' ranges: kept when the store is rangeable (see indexKeys). */
  private index: KeyIndex | undefined;
  /** The task's record cache, unless the store's caching is off. */
  private readonly records: RecordCache | undefined;

  constructor(
    readonly name: string,
    readonly areas: StoreAreas,
    readonly values: ValueLayout,
    readonly counters: StoreCounters,
    private readonly context: StoreContext,
    caching = true,
  ) {
    this.records = caching ? context.records : undefined;
    this.cachedRecordOverhead = areas.data.length;
    this.dataPrefixId = areas.data.toString("latin1");
  }

  /** Whether updates are folded in the task's record cache (`statestore.cache.max.bytes` > 0, and the store's caching on). */
  get cached(): boolean {
    return this.records !== undefined;
  }

  dataKey(key: Buffer): Buffer {
    return Buffer.concat([this.areas.data, key]);
  }

  /** The key's newest value: folded in the record cache, written since the last commit, or committed. */
  read(key: StoreKey): StoredValue | undefined {
    return this.newest(key, false);
  }

  /** `read` for an interactive query: the caches keep their order of use and what they hold. */
  peek(key: StoreKey): StoredValue | undefined {
    return this.newest(key, true);
  }

  /** The rows of `range` not yet committed, as the database will hold them, sorted by key. */
  pendingRows(range: ScanRange): PendingRow[] {
    const rows = new Map<string, PendingRow>();
    for (const { key, value } of this.context.cache.pending()) if (inScanRange(key, range)) rows.set(key.toString("latin1"), [key, value]);
    for (const record of this.records?.values() ?? []) {
      if (record.owner !== this) continue;
      const dataKey = this.dataKey(record.key);
      if (!inScanRange(dataKey, range)) continue;
      rows.set(this.dataPrefixId + record.id, [dataKey, record.value === null ? null : this.values.encode(record.value, record.timestamp)]);
    }
    return [...rows.values()].sort(([a], [b]) => Buffer.compare(a, b));
  }

  write(key: StoreKey, value: Buffer | null, timestamp: number): void {
    this.counters.uncommittedWrites++;
    if (this.index !== undefined) this.indexed(this.idOf(key), value);
    const records = this.records;
    if (records !== undefined) {
      const id = this.idOf(key);
      const headers = this.context.currentHeaders();
      if (!records.update(this, id, value, timestamp, headers)) records.add(this, keyBytes(key), id, value, timestamp, headers);
      return;
    }
    const row = this.rowOf(key);
    this.writeThrough(keyBytes(key), this.dataKeyOf(row), value, timestamp, row.id);
  }

  /** Writes without a changelog record: restoring from the changelog. */
  apply(key: Buffer, value: Buffer | null, timestamp: number): void {
    this.counters.uncommittedWrites++;
    if (this.index !== undefined) this.indexed(this.idOf(key), value);
    const row = this.rowOf(key);
    this.store(this.dataKeyOf(row), value, timestamp, row.id);
  }

  /** Keeps an index of the store's keys from now on, starting from what the database holds. */
  async indexKeys(db: TaskDatabase): Promise<void> {
    const index = new KeyIndex();
    const prefix = this.areas.data.length;
    for await (const id of scanRange(db, { gte: this.areas.data, lt: prefixEnd(this.areas.data) }, (rowKey) => rowKey.toString("latin1", prefix))) index.add(id);
    this.index = index;
  }

  /** The keys (latin1) in [from, to], in byte order or reversed; what the store holds now, pending writes included. */
  keyIds(from: Buffer | undefined, to: Buffer | undefined, reverse: boolean): string[] {
    if (this.index === undefined) throw new Error(`store ${this.name} keeps no key index: only Processor API stores (StreamsBuilder.addStateStore) offer ranges`);
    return this.index.range(from?.toString("latin1"), to?.toString("latin1"), reverse);
  }

  /** How many keys the store holds now, when it keeps an index; else as of the last commit. */
  approximateNumEntries(): number {
    return this.index?.size ?? this.counters.entries;
  }

  private indexed(id: string, value: Buffer | null): void {
    if (value === null) this.index!.remove(id);
    else this.index!.add(id);
  }

  /**
   * Has the record cache's updates forwarded by `listener` as they are flushed, with the values they replace when
   * `withOldValues`; false when the store has no cache, and the processor forwards each update itself.
   */
  forwardOnFlush(listener: FlushListener, withOldValues = false): boolean {
    if (!this.cached) return false;
    this.flushListener = listener;
    this.flushOldValues = withOldValues;
    return true;
  }

  /**
   * Writes a folded update. With a listener, as Kafka Streams' caching store: a delete of a key the store does not
   * hold is neither written nor told; the listener gets the replaced value when it asked for old values.
   */
  flushRecord({ key, id, value, timestamp, headers }: CachedRecord): void {
    const listener = this.flushListener;
    const rowId = this.dataPrefixId + id;
    const dataKey = this.dataKey(key);
    if (listener === undefined) {
      this.writeThrough(key, dataKey, value, timestamp, rowId);
      return;
    }
    const replaced = value === null || this.flushOldValues ? this.context.cache.read(dataKey, rowId) : undefined;
    if (value === null && replaced === undefined) return;
    this.writeThrough(key, dataKey, value, timestamp, rowId);
    listener(key, value, timestamp, headers, this.flushOldValues && replaced !== undefined ? this.values.decode(replaced).value : null);
  }

  private newest(key: StoreKey, peeking: boolean): StoredValue | undefined {
    const records = this.records;
    if (records !== undefined) {
      const id = this.idOf(key);
      const record = peeking ? records.peek(this, id) : records.get(this, id);
      if (record !== undefined) return this.cachedValue(record);
    }
    const row = this.rowOf(key);
    const cache = this.context.cache;
    const known = cache.known(row.id);
    const stored = known !== undefined ? known : cache.load(this.dataKeyOf(row), row.id, !peeking);
    return stored == null ? undefined : this.values.decode(stored);
  }

  private cachedValue(record: CachedRecord): StoredValue | undefined {
    return record.value === null ? undefined : { value: record.value, timestamp: this.values.timestamped ? record.timestamp : -1 };
  }

  /** The key in latin1; for bytes, the last one again when they are the same (compared with the string, its own copy). */
  private idOf(key: StoreKey): string {
    if (typeof key === "string") return key;
    if (!spells(key, this.lastId)) this.lastId = key.toString("latin1");
    return this.lastId;
  }

  private rowOf(key: StoreKey): Row {
    const keyId = this.idOf(key);
    if (this.lastRow?.keyId !== keyId) this.lastRow = { keyId, id: this.dataPrefixId + keyId };
    return this.lastRow;
  }

  private dataKeyOf(row: Row): Buffer {
    return (row.dataKey ??= Buffer.from(row.id, "latin1"));
  }

  private writeThrough(key: Buffer, dataKey: Buffer, value: Buffer | null, timestamp: number, id?: string): void {
    this.store(dataKey, value, timestamp, id);
    this.context.emit({ store: this.name, key, value, timestamp });
  }

  private store(dataKey: Buffer, value: Buffer | null, timestamp: number, id?: string): void {
    this.context.cache.write(dataKey, value === null ? null : this.values.encode(value, timestamp), this.counters, id);
  }
}
