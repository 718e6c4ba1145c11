/** Processor-facing key_value and timestamped_key_value stores: serdes over KeyValueBytes. */

import type { Header } from "../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { KeyValue, KeyValueIterator, KeyValueStore, TimestampedKeyValueStore, ValueAndTimestamp } from "../../../kernel/contracts/streams/stores";
import { indexedIterator } from "./key-value-iterator";
import { isAsciiText, takesTextKeys, type KeyValueBytes, type StoreKey } from "./key-value-bytes";
import type { StoredValue } from "./value-layout";

/** The shared part; `Found` is what a read returns (the value, or the value and its timestamp). */
abstract class TypedKeyValue<K, V, Found> {
  /** The last primitive key and its bytes: an aggregation reads a key and writes it straight after. */
  private lastKey: unknown;
  private lastKeyBytes: Buffer | undefined;
  private readonly textKeys: boolean;

  constructor(
    protected readonly bytes: KeyValueBytes,
    private readonly keySerde: Serde<K>,
    protected readonly valueSerde: Serde<V>,
  ) {
    this.textKeys = takesTextKeys(bytes, keySerde as Serde<unknown>);
  }

  get name(): string {
    return this.bytes.name;
  }

  get(key: K): Found | undefined {
    const stored = this.bytes.read(this.storeKey(key));
    return stored === undefined ? undefined : this.view(stored);
  }

  protected abstract view(stored: StoredValue): Found;

  range(from?: K, to?: K): KeyValueIterator<K, Found> {
    return this.walk(this.boundBytes(from), this.boundBytes(to), false);
  }

  reverseRange(from?: K, to?: K): KeyValueIterator<K, Found> {
    return this.walk(this.boundBytes(from), this.boundBytes(to), true);
  }

  all(): KeyValueIterator<K, Found> {
    return this.walk(undefined, undefined, false);
  }

  reverseAll(): KeyValueIterator<K, Found> {
    return this.walk(undefined, undefined, true);
  }

  prefixScan<P>(prefix: P, prefixKeySerde: Serde<P>): KeyValueIterator<K, Found> {
    const from = prefixKeySerde.serialize(prefix);
    const ids = this.bytes.keyIds(from, undefined, false);
    const start = from.toString("latin1");
    const end = ids.findIndex((id) => !id.startsWith(start));
    return this.iterate(end < 0 ? ids : ids.slice(0, end));
  }

  approximateNumEntries(): number {
    return this.bytes.approximateNumEntries();
  }

  private boundBytes(bound: K | undefined): Buffer | undefined {
    return bound === undefined || bound === null ? undefined : this.keySerde.serialize(bound);
  }

  private walk(from: Buffer | undefined, to: Buffer | undefined, reverse: boolean): KeyValueIterator<K, Found> {
    return this.iterate(this.bytes.keyIds(from, to, reverse));
  }

  private iterate(ids: readonly string[]): KeyValueIterator<K, Found> {
    return indexedIterator(ids, (id) => {
      const key = Buffer.from(id, "latin1");
      const stored = this.bytes.read(this.textKeys && isAsciiText(id) ? id : key);
      return stored === undefined ? undefined : { key: this.keySerde.deserialize(key), value: this.view(stored) };
    });
  }

  /** See KeyValueBytes.forwardOnFlush: the listener gets the key and values deserialized. */
  forwardOnFlush(
    listener: (key: K, value: V | null, timestamp: number, headers: readonly Header[] | undefined, oldValue: V | null) => void,
    withOldValues = false,
  ): boolean {
    const deserialize = (value: Buffer | null) => (value === null ? null : this.valueSerde.deserialize(value));
    return this.bytes.forwardOnFlush(
      (key, value, timestamp, headers, oldValue) => listener(this.keySerde.deserialize(key), deserialize(value), timestamp, headers, deserialize(oldValue)),
      withOldValues,
    );
  }

  protected writeAt(key: K, value: V | null, timestamp: number): void {
    this.bytes.write(this.storeKey(key), value === null ? null : this.valueSerde.serialize(value), timestamp);
  }

  private storeKey(key: K): StoreKey {
    return this.textKeys && isAsciiText(key) ? key : this.serializeKey(key);
  }

  /** Objects are serialized every time: one could have changed since. */
  private serializeKey(key: K): Buffer {
    if (typeof key === "object") return this.keySerde.serialize(key);
    if (key !== this.lastKey || this.lastKeyBytes === undefined) {
      this.lastKeyBytes = this.keySerde.serialize(key);
      this.lastKey = key;
    }
    return this.lastKeyBytes;
  }

  protected putIfAbsentAt(key: K, value: V, timestamp: number): Found | undefined {
    const existing = this.get(key);
    if (existing === undefined) this.writeAt(key, value, timestamp);
    return existing;
  }

  protected deleteAt(key: K, timestamp: (existing: Found) => number): Found | undefined {
    const existing = this.get(key);
    if (existing !== undefined) this.writeAt(key, null, timestamp(existing));
    return existing;
  }
}

export class LevelKeyValueStore<K, V> extends TypedKeyValue<K, V, V> implements KeyValueStore<K, V> {
  readonly type = "key_value";

  constructor(bytes: KeyValueBytes, keySerde: Serde<K>, valueSerde: Serde<V>, private readonly currentTimestamp: () => number) {
    super(bytes, keySerde, valueSerde);
  }

  put(key: K, value: V | null): void {
    this.writeAt(key, value, this.currentTimestamp());
  }

  putAll(entries: readonly KeyValue<K, V | null>[]): void {
    for (const { key, value } of entries) this.put(key, value);
  }

  putIfAbsent(key: K, value: V): V | undefined {
    return this.putIfAbsentAt(key, value, this.currentTimestamp());
  }

  delete(key: K): V | undefined {
    return this.deleteAt(key, () => this.currentTimestamp());
  }

  protected view(stored: StoredValue): V {
    return this.valueSerde.deserialize(stored.value);
  }
}

export class LevelTimestampedKeyValueStore<K, V> extends TypedKeyValue<K, V, ValueAndTimestamp<V>> implements TimestampedKeyValueStore<K, V> {
  readonly type = "timestamped_key_value";

  put(key: K, value: V | null, timestamp: number): void {
    this.writeAt(key, value, timestamp);
  }

  putAll(entries: readonly KeyValue<K, ValueAndTimestamp<V> | null>[]): void {
    for (const { key, value } of entries) this.writeAt(key, value === null ? null : value.value, value === null ? this.get(key)?.timestamp ?? 0 : value.timestamp);
  }

  putIfAbsent(key: K, value: V, timestamp: number): ValueAndTimestamp<V> | undefined {
    return this.putIfAbsentAt(key, value, timestamp);
  }

  delete(key: K): ValueAndTimestamp<V> | undefined {
    return this.deleteAt(key, (existing) => existing.timestamp);
  }

  protected view(stored: StoredValue): ValueAndTimestamp<V> {
    return { value: this.valueSerde.deserialize(stored.value), timestamp: stored.timestamp };
  }
}
