/**
 * A key-value store whose data lives in a store the user supplies (a KeyValueBytesStoreSupplier's), not in the task's
 * LevelDB: the processor face and the query face serialize over it, and each write also yields a changelog record.
 * Its writes are not part of the task's atomic LevelDB commit, so the task treats it as Kafka Streams treats an
 * in-memory store: it gets a new one and restores it from its changelog each time it is opened.
 */
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type {
  KeyValue,
  KeyValueBytesStore,
  KeyValueBytesStoreSupplier,
  KeyValueIterator,
  KeyValueStore,
  RangeOptions,
  ReadOnlyKeyValueStore,
  StoreSpec,
  TimestampedKeyValueStore,
  ValueAndTimestamp,
} from "../../../kernel/contracts/streams/stores";
import { PulledIterator } from "./key-value-iterator";
import type { StoreFaces } from "./store-openers";
import type { StoreContext } from "./store-context";
import { plainValues, timestampedValues, type StoredValue, type ValueLayout } from "./value-layout";

/**
 * The user's store under one of Sluice's value layouts (a timestamped store keeps each value after its timestamp, as
 * Kafka Streams lays timestamped values out): reads, deletes and ranges, as what a lookup finds.
 */
abstract class SuppliedStore<K, V, Found> {
  constructor(
    readonly name: string,
    private readonly bytes: KeyValueBytesStore,
    protected readonly keySerde: Serde<K>,
    protected readonly valueSerde: Serde<V>,
    private readonly layout: ValueLayout,
    private readonly context: StoreContext,
  ) {}

  get(key: K): Found | undefined {
    const stored = this.bytes.get(this.keySerde.serialize(key));
    return stored === undefined ? undefined : this.found(stored);
  }

  delete(key: K): Found | undefined {
    const keyBytes = this.keySerde.serialize(key);
    const removed = this.bytes.delete(keyBytes);
    this.context.emit({ store: this.name, key: keyBytes, value: null, timestamp: this.context.currentTimestamp() });
    return removed === undefined ? undefined : this.found(removed);
  }

  range(from?: K, to?: K): KeyValueIterator<K, Found> {
    return this.walk(this.entries(from, to));
  }

  reverseRange(from?: K, to?: K): KeyValueIterator<K, Found> {
    return this.walk([...this.entries(from, to)].reverse());
  }

  all(): KeyValueIterator<K, Found> {
    return this.range();
  }

  reverseAll(): KeyValueIterator<K, Found> {
    return this.reverseRange();
  }

  prefixScan<P>(prefix: P, prefixKeySerde: Serde<P>): KeyValueIterator<K, Found> {
    const start = prefixKeySerde.serialize(prefix);
    return this.walk([...this.bytes.range(start, undefined)].filter(({ key }) => key.subarray(0, start.length).equals(start)));
  }

  approximateNumEntries(): number {
    return this.bytes.approximateNumEntries();
  }

  /** The user's entries in [from, to]; none when from > to, as in Kafka Streams. */
  entries(from?: K, to?: K): Iterable<KeyValue<Buffer, Buffer>> {
    const [low, high] = [from === undefined ? undefined : this.keySerde.serialize(from), to === undefined ? undefined : this.keySerde.serialize(to)];
    if (low !== undefined && high !== undefined && Buffer.compare(low, high) > 0) return [];
    return this.bytes.range(low, high);
  }

  decode({ key, value }: KeyValue<Buffer, Buffer>): KeyValue<K, Found> {
    return { key: this.keySerde.deserialize(key), value: this.found(value) };
  }

  /** A value put: into the user's store in the layout, and to the changelog as the value with its timestamp. */
  protected write(key: K, value: V, timestamp: number): void {
    const keyBytes = this.keySerde.serialize(key);
    const valueBytes = this.valueSerde.serialize(value);
    this.bytes.put(keyBytes, this.layout.encode(valueBytes, timestamp));
    this.context.emit({ store: this.name, key: keyBytes, value: valueBytes, timestamp });
  }

  protected abstract foundOf(stored: StoredValue): Found;

  private found(stored: Buffer): Found {
    return this.foundOf(this.layout.decode(stored));
  }

  private walk(entries: Iterable<KeyValue<Buffer, Buffer>>): KeyValueIterator<K, Found> {
    const iterator = entries[Symbol.iterator]();
    return new PulledIterator(() => {
      const step = iterator.next();
      return step.done ? undefined : this.decode(step.value);
    });
  }
}

class SuppliedKeyValueStore<K, V> extends SuppliedStore<K, V, V> implements KeyValueStore<K, V> {
  readonly type = "key_value";

  constructor(name: string, bytes: KeyValueBytesStore, keySerde: Serde<K>, valueSerde: Serde<V>, private readonly storeContext: StoreContext) {
    super(name, bytes, keySerde, valueSerde, plainValues, storeContext);
  }

  put(key: K, value: V | null): void {
    if (value === null) this.delete(key);
    else this.write(key, value, this.storeContext.currentTimestamp());
  }

  putIfAbsent(key: K, value: V): V | undefined {
    const current = this.get(key);
    if (current === undefined) this.put(key, value);
    return current;
  }

  putAll(entries: readonly KeyValue<K, V | null>[]): void {
    for (const { key, value } of entries) this.put(key, value);
  }

  protected foundOf(stored: StoredValue): V {
    return this.valueSerde.deserialize(stored.value);
  }
}

class SuppliedTimestampedKeyValueStore<K, V> extends SuppliedStore<K, V, ValueAndTimestamp<V>> implements TimestampedKeyValueStore<K, V> {
  readonly type = "timestamped_key_value";

  constructor(name: string, bytes: KeyValueBytesStore, keySerde: Serde<K>, valueSerde: Serde<V>, context: StoreContext) {
    super(name, bytes, keySerde, valueSerde, timestampedValues, context);
  }

  put(key: K, value: V | null, timestamp: number): void {
    if (value === null) this.delete(key);
    else this.write(key, value, timestamp);
  }

  putIfAbsent(key: K, value: V, timestamp: number): ValueAndTimestamp<V> | undefined {
    const current = this.get(key);
    if (current === undefined) this.put(key, value, timestamp);
    return current;
  }

  putAll(entries: readonly KeyValue<K, ValueAndTimestamp<V> | null>[]): void {
    for (const { key, value } of entries) {
      if (value === null) this.delete(key);
      else this.put(key, value.value, value.timestamp);
    }
  }

  protected foundOf(stored: StoredValue): ValueAndTimestamp<V> {
    return { value: this.valueSerde.deserialize(stored.value), timestamp: stored.timestamp };
  }
}

/** Queries read the user's store as it is: there is no committed copy apart from it. */
class SuppliedReadOnlyKeyValueStore<K, V, Found> implements ReadOnlyKeyValueStore<K, Found> {
  constructor(private readonly store: SuppliedStore<K, V, Found>) {}

  async get(key: K): Promise<Found | undefined> {
    return this.store.get(key);
  }

  async *range(from?: K, to?: K, options: RangeOptions = {}): AsyncIterable<KeyValue<K, Found>> {
    let left = options.limit ?? Infinity;
    for (const entry of this.store.entries(from, to)) {
      if (left-- <= 0) return;
      yield this.store.decode(entry);
    }
  }

  all(options?: RangeOptions): AsyncIterable<KeyValue<K, Found>> {
    return this.range(undefined, undefined, options);
  }

  async approximateNumEntries(): Promise<number> {
    return this.store.approximateNumEntries();
  }
}

/** The faces of a key_value or timestamped_key_value store kept in the user's store of `spec.bytesStoreSupplier`. */
export function openSuppliedKeyValueStore(spec: StoreSpec, context: StoreContext): StoreFaces {
  const bytes = (spec.bytesStoreSupplier as KeyValueBytesStoreSupplier).get();
  const timestamped = spec.type === "timestamped_key_value";
  const layout = timestamped ? timestampedValues : plainValues;
  const hooks = {
    applyChangelog: (key: Buffer, value: Buffer | null, timestamp: number) => (value === null ? void bytes.delete(key) : bytes.put(key, layout.encode(value, timestamp))),
    flush: () => bytes.flush?.(),
    close: () => bytes.close?.(),
  };
  if (timestamped) {
    const processor = new SuppliedTimestampedKeyValueStore(spec.name, bytes, spec.keySerde, spec.valueSerde, context);
    return { processor, readOnly: { type: "timestamped_key_value", store: new SuppliedReadOnlyKeyValueStore(processor) }, ...hooks };
  }
  const processor = new SuppliedKeyValueStore(spec.name, bytes, spec.keySerde, spec.valueSerde, context);
  return { processor, readOnly: { type: "key_value", store: new SuppliedReadOnlyKeyValueStore(processor) }, ...hooks };
}
