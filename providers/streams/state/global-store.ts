/**
 * A global store (Kafka Streams' global state store): every partition of its topic, whole, on each instance. It
 * lives in memory, outside the tasks, and keeps no changelog of its own: the topic is its changelog, and it is
 * filled again from the topic's start whenever the application starts (as Kafka Streams restores an in-memory
 * global store). A global table's store is written by its topic directly; a store added with
 * `StreamsBuilder.addGlobalStore` by its own processor (see engine/global-store-updates). Every other processor
 * reads it, never writes it, and queries read it on any instance.
 */
import type { ProcessorSupplier } from "../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { KeyValue, KeyValueIterator, ReadOnlyKeyValueStore, ReadOnlyStore, RangeOptions, StateStore, ValueAndTimestamp } from "../../../kernel/contracts/streams/stores";
import { listIterator } from "./key-value-iterator";

/** The processor that keeps a store added with addGlobalStore, and how it reads the topic (its Consumed serdes). */
export interface GlobalStoreProcessor {
  supplier: ProcessorSupplier<any, any, void, void>;
  /** The processor's name, for errors. */
  name: string;
  keySerde: Serde<any>;
  valueSerde: Serde<any>;
}

export interface GlobalStoreSpec {
  name: string;
  topic: string;
  type: "key_value" | "timestamped_key_value";
  keySerde: Serde<any>;
  valueSerde: Serde<any>;
  /** addGlobalStore's processor; none for a global table, whose topic's records are its rows. */
  processor?: GlobalStoreProcessor;
}

interface Entry {
  key: Buffer;
  value: Buffer;
  timestamp: number;
}

/** One row's key bytes as a map key: latin1 maps each byte to one character, so distinct bytes stay distinct. */
const rowKey = (bytes: Buffer) => bytes.toString("latin1");

/** The store as every processor but its own sees it: reads only (Kafka Streams gives them a read-only store). */
export class GlobalKeyValueStore implements StateStore {
  readonly name: string;
  readonly type: "key_value" | "timestamped_key_value";
  private readonly rows = new Map<string, Entry>();

  constructor(readonly spec: GlobalStoreSpec) {
    this.name = spec.name;
    this.type = spec.type;
  }

  get size(): number {
    return this.rows.size;
  }

  /**
   * What the key serde must have before the store takes records or lookups: a schema registry serde's writer schema
   * for the topic's key subject (Serde.prepareSerialize). Rejects, naming the subject, when it cannot be had.
   */
  async prepare(): Promise<void> {
    await this.spec.keySerde.prepareSerialize?.(this.spec.topic);
  }

  /**
   * Applies one record of the topic: a null value deletes the row; a null key is passed over, as Kafka Streams does.
   * The bytes are copied: a fetched record's are a view of its whole fetch answer.
   */
  apply(key: Buffer | null, value: Buffer | null, timestamp: number): void {
    if (key === null) return;
    const stored = this.storedKey(key);
    if (value === null) this.rows.delete(rowKey(stored));
    else this.rows.set(rowKey(stored), { key: stored, value: Buffer.from(value), timestamp });
  }

  /**
   * A record's key as the store keeps it. Kafka Streams writes a global table's rows through the key serde, so a key
   * a lookup writes finds its row. The bytes are the same for a serde that writes a key one way only; a schema
   * registry serde (one that prepares to write) may be read key bytes of another schema id than the one it writes, so
   * its keys are read and written again. A key it cannot read is kept as it came: no lookup can make those bytes.
   */
  private storedKey(key: Buffer): Buffer {
    const serde = this.spec.keySerde;
    if (serde.prepareSerialize === undefined) return Buffer.from(key);
    try {
      return this.keyBytes(serde.deserialize(key));
    } catch {
      return Buffer.from(key);
    }
  }

  /** A key as the store's rows are keyed: written by the key serde as for the store's topic. */
  private keyBytes(key: unknown): Buffer {
    return this.spec.keySerde.serialize(key, this.spec.topic);
  }

  /** What a processor reads: the value, with its timestamp when the store keeps them. */
  get(key: unknown): unknown {
    if (key === null || key === undefined) return undefined;
    const entry = this.rows.get(rowKey(this.keyBytes(key)));
    return entry === undefined ? undefined : this.face(entry);
  }

  range(from?: unknown, to?: unknown): KeyValueIterator<unknown, unknown> {
    return listIterator(this.listed(from, to));
  }

  reverseRange(from?: unknown, to?: unknown): KeyValueIterator<unknown, unknown> {
    return listIterator(this.listed(from, to).reverse());
  }

  all(): KeyValueIterator<unknown, unknown> {
    return this.range();
  }

  reverseAll(): KeyValueIterator<unknown, unknown> {
    return this.reverseRange();
  }

  prefixScan<P>(prefix: P, prefixKeySerde: Serde<P>): KeyValueIterator<unknown, unknown> {
    const start = prefixKeySerde.serialize(prefix);
    return listIterator(this.sorted(start, undefined).filter((entry) => entry.key.subarray(0, start.length).equals(start)).map((entry) => this.keyValue(entry)));
  }

  approximateNumEntries(): number {
    return this.rows.size;
  }

  put(): never {
    return this.readOnly();
  }

  putIfAbsent(): never {
    return this.readOnly();
  }

  putAll(): never {
    return this.readOnly();
  }

  delete(): never {
    return this.readOnly();
  }

  /**
   * The store as its own processor sees it (addGlobalStore): reads, and writes of deserialized keys and values. A
   * write without a timestamp (a key_value store's) takes the timestamp of the record in process.
   */
  writable(recordTimestamp: () => number): object {
    const store = this;
    const write = (key: unknown, value: unknown, timestamp = recordTimestamp()) => {
      if (key === null || key === undefined) throw new Error(`global store '${store.name}': a key may not be null`);
      const keyBytes = store.keyBytes(key);
      if (value === null || value === undefined) store.rows.delete(rowKey(keyBytes));
      else store.rows.set(rowKey(keyBytes), { key: keyBytes, value: store.spec.valueSerde.serialize(value), timestamp });
    };
    const plain = store.type === "key_value";
    return {
      name: store.name,
      type: store.type,
      get: (key: unknown) => store.get(key),
      range: (from?: unknown, to?: unknown) => store.range(from, to),
      reverseRange: (from?: unknown, to?: unknown) => store.reverseRange(from, to),
      all: () => store.all(),
      reverseAll: () => store.reverseAll(),
      prefixScan: <P>(prefix: P, serde: Serde<P>) => store.prefixScan(prefix, serde),
      approximateNumEntries: () => store.approximateNumEntries(),
      put: (key: unknown, value: unknown, timestamp?: number) => write(key, value, plain ? undefined : timestamp),
      putIfAbsent: (key: unknown, value: unknown, timestamp?: number) => {
        const found = store.get(key);
        if (found === undefined) write(key, value, plain ? undefined : timestamp);
        return found;
      },
      delete: (key: unknown) => {
        const found = store.get(key);
        write(key, null);
        return found;
      },
      putAll: (entries: readonly KeyValue<unknown, any>[]) => {
        for (const { key, value } of entries) {
          if (plain || value === null) write(key, value);
          else write(key, (value as ValueAndTimestamp<unknown>).value, (value as ValueAndTimestamp<unknown>).timestamp);
        }
      },
    };
  }

  /** The store as queries read it. */
  queryable(): ReadOnlyStore {
    const store: ReadOnlyKeyValueStore<unknown, any> = {
      get: async (key) => this.get(key),
      range: (from, to, options) => this.entries(from, to, options),
      all: (options) => this.entries(undefined, undefined, options),
      approximateNumEntries: async () => this.rows.size,
    };
    return this.type === "key_value" ? { type: "key_value", store } : { type: "timestamped_key_value", store };
  }

  private face(entry: Entry): unknown {
    const value = this.spec.valueSerde.deserialize(entry.value);
    return this.type === "key_value" ? value : ({ value, timestamp: entry.timestamp } satisfies ValueAndTimestamp<unknown>);
  }

  private keyValue(entry: Entry): KeyValue<unknown, unknown> {
    return { key: this.spec.keySerde.deserialize(entry.key), value: this.face(entry) };
  }

  /** Entries with low <= key <= high in key byte order, as they are now; none when low > high. */
  private sorted(low: Buffer | undefined, high: Buffer | undefined): Entry[] {
    const inRange = [...this.rows.values()].filter((entry) => (low === undefined || Buffer.compare(entry.key, low) >= 0) && (high === undefined || Buffer.compare(entry.key, high) <= 0));
    return inRange.sort((a, b) => Buffer.compare(a.key, b.key));
  }

  private listed(from: unknown, to: unknown): KeyValue<unknown, unknown>[] {
    return this.sorted(this.bytesOf(from), this.bytesOf(to)).map((entry) => this.keyValue(entry));
  }

  private bytesOf(key: unknown): Buffer | undefined {
    return key === undefined || key === null ? undefined : this.keyBytes(key);
  }

  /** Entries with from <= key <= to, in key byte order, as they are when the walk begins. */
  private async *entries(from: unknown, to: unknown, options: RangeOptions = {}): AsyncIterable<KeyValue<unknown, unknown>> {
    const limit = options.limit ?? Infinity;
    for (const entry of this.sorted(this.bytesOf(from), this.bytesOf(to)).slice(0, limit)) yield this.keyValue(entry);
  }

  private readOnly(): never {
    const through = this.spec.processor === undefined ? "" : `, through processor '${this.spec.processor.name}',`;
    throw new Error(`global store '${this.name}' is written by its topic only${through}: other processors may read it, not write it`);
  }
}

/** The global stores of one run of an application, by name and by topic. */
export class GlobalStores {
  private readonly byName = new Map<string, GlobalKeyValueStore>();
  private readonly byTopic = new Map<string, GlobalKeyValueStore>();

  constructor(specs: readonly GlobalStoreSpec[]) {
    for (const spec of specs) {
      const store = new GlobalKeyValueStore(spec);
      this.byName.set(spec.name, store);
      this.byTopic.set(spec.topic, store);
    }
  }

  get topics(): string[] {
    return [...this.byTopic.keys()];
  }

  all(): GlobalKeyValueStore[] {
    return [...this.byName.values()];
  }

  store(name: string): GlobalKeyValueStore | undefined {
    return this.byName.get(name);
  }

  ofTopic(topic: string): GlobalKeyValueStore | undefined {
    return this.byTopic.get(topic);
  }
}
