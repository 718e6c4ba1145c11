/**
 * A key-value store whose data lives in a store the user supplies (a KeyValueBytesStoreSupplier's), not in the task's
 * LevelDB: the processor face and the query face serialize over it, and each write also yields a changelog record.
 * Its writes are not part of the task's atomic LevelDB commit, so the task treats it as Kafka Streams treats an
 * in-memory store: it gets a new one and restores it from its changelog each time it is opened.
 */
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { KeyValue, KeyValueBytesStore, KeyValueIterator, KeyValueStore, RangeOptions, ReadOnlyKeyValueStore, StoreSpec } from "../../../kernel/contracts/streams/stores";
import { PulledIterator } from "./key-value-iterator";
import type { StoreFaces } from "./store-openers";
import type { StoreContext } from "./store-context";

class SuppliedKeyValueStore<K, V> implements KeyValueStore<K, V> {
  readonly type = "key_value";

  constructor(
    readonly name: string,
    private readonly bytes: KeyValueBytesStore,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    private readonly context: StoreContext,
  ) {}

  get(key: K): V | undefined {
    const value = this.bytes.get(this.keySerde.serialize(key));
    return value === undefined ? undefined : this.valueSerde.deserialize(value);
  }

  put(key: K, value: V | null): void {
    if (value === null) {
      this.delete(key);
      return;
    }
    const keyBytes = this.keySerde.serialize(key);
    const valueBytes = this.valueSerde.serialize(value);
    this.bytes.put(keyBytes, valueBytes);
    this.context.emit({ store: this.name, key: keyBytes, value: valueBytes, timestamp: this.context.currentTimestamp() });
  }

  putIfAbsent(key: K, value: V): V | undefined {
    const current = this.get(key);
    if (current === undefined) this.put(key, value);
    return current;
  }

  delete(key: K): V | undefined {
    const keyBytes = this.keySerde.serialize(key);
    const removed = this.bytes.delete(keyBytes);
    this.context.emit({ store: this.name, key: keyBytes, value: null, timestamp: this.context.currentTimestamp() });
    return removed === undefined ? undefined : this.valueSerde.deserialize(removed);
  }

  putAll(entries: readonly KeyValue<K, V | null>[]): void {
    for (const { key, value } of entries) this.put(key, value);
  }

  range(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.walk(this.entries(from, to));
  }

  reverseRange(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.walk([...this.entries(from, to)].reverse());
  }

  all(): KeyValueIterator<K, V> {
    return this.range();
  }

  reverseAll(): KeyValueIterator<K, V> {
    return this.reverseRange();
  }

  prefixScan<P>(prefix: P, prefixKeySerde: Serde<P>): KeyValueIterator<K, V> {
    const start = prefixKeySerde.serialize(prefix);
    const matching = [...this.bytes.range(start, undefined)].filter(({ key }) => key.subarray(0, start.length).equals(start));
    return this.walk(matching);
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

  decode({ key, value }: KeyValue<Buffer, Buffer>): KeyValue<K, V> {
    return { key: this.keySerde.deserialize(key), value: this.valueSerde.deserialize(value) };
  }

  private walk(entries: Iterable<KeyValue<Buffer, Buffer>>): KeyValueIterator<K, V> {
    const iterator = entries[Symbol.iterator]();
    return new PulledIterator(() => {
      const step = iterator.next();
      return step.done ? undefined : this.decode(step.value);
    });
  }
}

/** Queries read the user's store as it is: there is no committed copy apart from it. */
class SuppliedReadOnlyKeyValueStore<K, V> implements ReadOnlyKeyValueStore<K, V> {
  constructor(private readonly store: SuppliedKeyValueStore<K, V>) {}

  async get(key: K): Promise<V | undefined> {
    return this.store.get(key);
  }

  async *range(from?: K, to?: K, options: RangeOptions = {}): AsyncIterable<KeyValue<K, V>> {
    let left = options.limit ?? Infinity;
    for (const entry of this.store.entries(from, to)) {
      if (left-- <= 0) return;
      yield this.store.decode(entry);
    }
  }

  all(options?: RangeOptions): AsyncIterable<KeyValue<K, V>> {
    return this.range(undefined, undefined, options);
  }

  async approximateNumEntries(): Promise<number> {
    return this.store.approximateNumEntries();
  }
}

export function openSuppliedKeyValueStore(spec: StoreSpec, context: StoreContext): StoreFaces {
  const bytes = spec.bytesStoreSupplier!.get();
  const processor = new SuppliedKeyValueStore(spec.name, bytes, spec.keySerde, spec.valueSerde, context);
  return {
    processor,
    readOnly: { type: "key_value", store: new SuppliedReadOnlyKeyValueStore(processor) },
    applyChangelog: (key, value) => (value === null ? void bytes.delete(key) : bytes.put(key, value)),
    flush: () => bytes.flush?.(),
    close: () => bytes.close?.(),
  };
}
