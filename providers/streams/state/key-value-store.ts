/** Processor-facing key_value and timestamped_key_value stores: serdes over KeyValueBytes. */

import type { Header } from "../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { KeyValueStore, TimestampedKeyValueStore, ValueAndTimestamp } from "../../../kernel/contracts/streams/stores";
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

  /**
   * The entries in key byte order, of a rangeable store: the keys as they are now, each value read when reached (a
   * key deleted meanwhile is passed over).
   */
  *all(): IterableIterator<{ key: K; value: Found }> {
    for (const id of [...this.bytes.keyIds()]) {
      const stored = this.bytes.read(this.textKeys && isAsciiText(id) ? id : Buffer.from(id, "latin1"));
      if (stored !== undefined) yield { key: this.keySerde.deserialize(Buffer.from(id, "latin1")), value: this.view(stored) };
    }
  }

  /** See KeyValueBytes.forwardOnFlush: the listener gets the key and value deserialized. */
  forwardOnFlush(listener: (key: K, value: V | null, timestamp: number, headers: readonly Header[] | undefined) => void): boolean {
    return this.bytes.forwardOnFlush((key, value, timestamp, headers) =>
      listener(this.keySerde.deserialize(key), value === null ? null : this.valueSerde.deserialize(value), timestamp, headers),
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
