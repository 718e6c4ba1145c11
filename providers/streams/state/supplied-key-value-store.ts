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
import type { Header } from "../../../kernel/contracts/streams/processor";
import { PulledIterator } from "./key-value-iterator";
import { inKeyRange, overlaid, suppliedCache, type CacheBackend, type SuppliedCache } from "./supplied-cache";
import type { StoreFaces } from "./store-openers";
import type { StoreContext } from "./store-context";
import { plainValues, timestampedValues, type StoredValue, type ValueLayout } from "./value-layout";

const NO_SUFFIX = Buffer.alloc(0);

/** An entry of the user's store or of the cache, keyed by its key's bytes (`id`: in latin1), its value as the layout lays it out. */
interface FoundEntry extends KeyValue<Buffer, Buffer> {
  id: string;
}

const byKeyBytes = (a: FoundEntry, b: FoundEntry) => Buffer.compare(a.key, b.key);

/**
 * The user's store under one of Sluice's value layouts (a timestamped store keeps each value after its timestamp, as
 * Kafka Streams lays timestamped values out): reads, deletes and ranges, as what a lookup finds; behind the task's
 * record cache unless the store's caching is off. Walks keep the order the user's store gives; with updates in the
 * cache among them, by key bytes (as Kafka Streams' caching store merges its cache into the store's walk).
 */
abstract class SuppliedStore<K, V, Found> implements CacheBackend {
  readonly suffixLength = 0;
  private readonly cache: SuppliedCache | undefined;

  constructor(
    readonly name: string,
    private readonly bytes: KeyValueBytesStore,
    protected readonly keySerde: Serde<K>,
    protected readonly valueSerde: Serde<V>,
    private readonly layout: ValueLayout,
    private readonly context: StoreContext,
    caching: boolean,
  ) {
    this.cache = suppliedCache(context, caching, this);
  }

  get(key: K): Found | undefined {
    return this.lookup(this.keySerde.serialize(key));
  }

  delete(key: K): Found | undefined {
    const keyBytes = this.keySerde.serialize(key);
    if (this.cache !== undefined) {
      const removed = this.lookup(keyBytes);
      this.cache.put(keyBytes, NO_SUFFIX, null, this.context.currentTimestamp(), this.context.currentHeaders());
      return removed;
    }
    const removed = this.bytes.delete(keyBytes);
    this.emit(keyBytes, null, this.context.currentTimestamp());
    return removed === undefined ? undefined : this.found(removed);
  }

  range(from?: K, to?: K): KeyValueIterator<K, Found> {
    return this.walk(this.live(from, to));
  }

  reverseRange(from?: K, to?: K): KeyValueIterator<K, Found> {
    return this.walk([...this.live(from, to)].reverse());
  }

  all(): KeyValueIterator<K, Found> {
    return this.range();
  }

  reverseAll(): KeyValueIterator<K, Found> {
    return this.reverseRange();
  }

  prefixScan<P>(prefix: P, prefixKeySerde: Serde<P>): KeyValueIterator<K, Found> {
    const start = prefixKeySerde.serialize(prefix);
    const prefixed = (key: Buffer) => key.subarray(0, start.length).equals(start);
    return this.walk(this.overlay([...this.bytes.range(start, undefined)].filter(({ key }) => prefixed(key)), prefixed));
  }

  /** What the user's store counts (as Kafka Streams' caching store asks the store it wraps). */
  approximateNumEntries(): number {
    return this.bytes.approximateNumEntries();
  }

  /** The user's entries in [from, to]. Queries read these: what the cache has let go of. */
  entries(from?: K, to?: K): Iterable<KeyValue<Buffer, Buffer>> {
    const bounds = this.bounds(from, to);
    return bounds === undefined ? [] : this.bytes.range(...bounds);
  }

  decode({ key, value }: KeyValue<Buffer, Buffer>): KeyValue<K, Found> {
    return { key: this.keySerde.deserialize(key), value: this.found(value) };
  }

  /**
   * Has the cache forward the processor's updates as it flushes them (see KeyValueBytes.forwardOnFlush), with the
   * values they replace when `withOldValues`; false when the store has no cache.
   */
  forwardOnFlush(
    listener: (key: K, value: V | null, timestamp: number, headers: readonly Header[] | undefined, oldValue: V | null) => void,
    withOldValues = false,
  ): boolean {
    if (this.cache === undefined) return false;
    const deserialize = (value: Buffer | null) => (value === null ? null : this.valueSerde.deserialize(value));
    this.cache.forwardOnFlush(
      (key, _suffix, value, timestamp, headers, oldValue) => listener(this.keySerde.deserialize(key), deserialize(value), timestamp, headers, deserialize(oldValue)),
      withOldValues,
    );
    return true;
  }

  stored(key: Buffer): Buffer | undefined {
    const stored = this.bytes.get(key);
    return stored === undefined ? undefined : this.layout.decode(stored).value;
  }

  writeThrough(key: Buffer, _suffix: Buffer, value: Buffer | null, timestamp: number): void {
    if (value === null) this.bytes.delete(key);
    else this.bytes.put(key, this.layout.encode(value, timestamp));
    this.emit(key, value, timestamp);
  }

  /** A value put: into the cache, or into the user's store in the layout and to the changelog as the value with its timestamp. */
  protected write(key: K, value: V, timestamp: number): void {
    const keyBytes = this.keySerde.serialize(key);
    const valueBytes = this.valueSerde.serialize(value);
    if (this.cache !== undefined) this.cache.put(keyBytes, NO_SUFFIX, valueBytes, timestamp, this.context.currentHeaders());
    else this.writeThrough(keyBytes, NO_SUFFIX, valueBytes, timestamp);
  }

  protected abstract foundOf(stored: StoredValue): Found;

  private emit(key: Buffer, value: Buffer | null, timestamp: number): void {
    this.context.emit({ store: this.name, key, value, timestamp });
  }

  /** The key's value: its update in the cache, else what the user's store holds. */
  private lookup(keyBytes: Buffer): Found | undefined {
    const cached = this.cache?.get(keyBytes, NO_SUFFIX);
    if (cached !== undefined) return cached.value === null ? undefined : this.foundOf({ value: cached.value, timestamp: this.layout.timestamped ? cached.timestamp : -1 });
    const stored = this.bytes.get(keyBytes);
    return stored === undefined ? undefined : this.found(stored);
  }

  private found(stored: Buffer): Found {
    return this.foundOf(this.layout.decode(stored));
  }

  /** The serialized bounds of [from, to] (an omitted one is open); undefined when from > to: no entries, as in Kafka Streams. */
  private bounds(from?: K, to?: K): [Buffer | undefined, Buffer | undefined] | undefined {
    const [low, high] = [from === undefined ? undefined : this.keySerde.serialize(from), to === undefined ? undefined : this.keySerde.serialize(to)];
    return low !== undefined && high !== undefined && Buffer.compare(low, high) > 0 ? undefined : [low, high];
  }

  /** The entries in [from, to] the processor sees: the user's, under the cache's updates. */
  private live(from?: K, to?: K): Iterable<KeyValue<Buffer, Buffer>> {
    const bounds = this.bounds(from, to);
    if (bounds === undefined) return [];
    const stored = this.bytes.range(...bounds);
    return this.cache === undefined ? stored : this.overlay([...stored], (key) => inKeyRange(key, ...bounds));
  }

  /** `stored` with the cache's updates of keys `accept` accepts laid over it. */
  private overlay(stored: KeyValue<Buffer, Buffer>[], accept: (key: Buffer) => boolean): KeyValue<Buffer, Buffer>[] {
    const cached = (this.cache?.entries(accept) ?? []).map(({ key, record }) => ({
      id: record.id,
      key,
      value: record.value === null ? key : this.layout.encode(record.value, record.timestamp),
      deleted: record.value === null,
    }));
    if (cached.length === 0) return stored;
    return overlaid(stored.map(({ key, value }) => ({ id: key.toString("latin1"), key, value })), cached, byKeyBytes);
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

  constructor(name: string, bytes: KeyValueBytesStore, keySerde: Serde<K>, valueSerde: Serde<V>, private readonly storeContext: StoreContext, caching: boolean) {
    super(name, bytes, keySerde, valueSerde, plainValues, storeContext, caching);
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

  constructor(name: string, bytes: KeyValueBytesStore, keySerde: Serde<K>, valueSerde: Serde<V>, context: StoreContext, caching: boolean) {
    super(name, bytes, keySerde, valueSerde, timestampedValues, context, caching);
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

/**
 * Queries read the user's store as it is (there is no committed copy apart from it): what the record cache has let go
 * of, as a built-in store's queries read what was committed.
 */
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

/**
 * The faces of a key_value or timestamped_key_value store kept in the user's store of `spec.bytesStoreSupplier`,
 * behind the task's record cache unless `spec.caching` is false.
 */
export function openSuppliedKeyValueStore(spec: StoreSpec, context: StoreContext): StoreFaces {
  const bytes = (spec.bytesStoreSupplier as KeyValueBytesStoreSupplier).get();
  const timestamped = spec.type === "timestamped_key_value";
  const layout = timestamped ? timestampedValues : plainValues;
  const hooks = {
    applyChangelog: (key: Buffer, value: Buffer | null, timestamp: number) => (value === null ? void bytes.delete(key) : bytes.put(key, layout.encode(value, timestamp))),
    flush: () => bytes.flush?.(),
    close: () => bytes.close?.(),
  };
  const caching = spec.caching !== false;
  if (timestamped) {
    const processor = new SuppliedTimestampedKeyValueStore(spec.name, bytes, spec.keySerde, spec.valueSerde, context, caching);
    return { processor, readOnly: { type: "timestamped_key_value", store: new SuppliedReadOnlyKeyValueStore(processor) }, ...hooks };
  }
  const processor = new SuppliedKeyValueStore(spec.name, bytes, spec.keySerde, spec.valueSerde, context, caching);
  return { processor, readOnly: { type: "key_value", store: new SuppliedReadOnlyKeyValueStore(processor) }, ...hooks };
}
