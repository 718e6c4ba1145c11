/**
 * A global store (Kafka Streams' global state store): every partition of its topic, whole, on each instance. It
 * lives in memory, outside the tasks, and keeps no changelog of its own: the topic is its changelog, and it is
 * filled again from the topic's start whenever the application starts (as Kafka Streams restores an in-memory
 * global store). Only the topic writes it; processors read it, and queries read it on any instance.
 */
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { KeyValue, ReadOnlyKeyValueStore, ReadOnlyStore, RangeOptions, StateStore, ValueAndTimestamp } from "../../../kernel/contracts/streams/stores";

export interface GlobalStoreSpec {
  name: string;
  topic: string;
  type: "key_value" | "timestamped_key_value";
  keySerde: Serde<any>;
  valueSerde: Serde<any>;
}

interface Entry {
  key: Buffer;
  value: Buffer;
  timestamp: number;
}

/** One row's key bytes as a map key: latin1 maps each byte to one character, so distinct bytes stay distinct. */
const rowKey = (bytes: Buffer) => bytes.toString("latin1");

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
   * Applies one record of the topic: a null value deletes the row; a null key is passed over, as Kafka Streams does.
   * The bytes are copied: a fetched record's are a view of its whole fetch answer.
   */
  apply(key: Buffer | null, value: Buffer | null, timestamp: number): void {
    if (key === null) return;
    if (value === null) this.rows.delete(rowKey(key));
    else this.rows.set(rowKey(key), { key: Buffer.from(key), value: Buffer.from(value), timestamp });
  }

  /** What a processor reads: the value, with its timestamp when the store keeps them. */
  get(key: unknown): unknown {
    if (key === null || key === undefined) return undefined;
    const entry = this.rows.get(rowKey(this.spec.keySerde.serialize(key)));
    return entry === undefined ? undefined : this.face(entry);
  }

  put(): never {
    return this.readOnly();
  }

  delete(): never {
    return this.readOnly();
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

  /** Entries with from <= key <= to, in key byte order, as they are when the walk begins. */
  private async *entries(from: unknown, to: unknown, options: RangeOptions = {}): AsyncIterable<KeyValue<unknown, unknown>> {
    const low = from === undefined ? undefined : this.spec.keySerde.serialize(from);
    const high = to === undefined ? undefined : this.spec.keySerde.serialize(to);
    const inRange = [...this.rows.values()].filter((entry) => (low === undefined || Buffer.compare(entry.key, low) >= 0) && (high === undefined || Buffer.compare(entry.key, high) <= 0));
    inRange.sort((a, b) => Buffer.compare(a.key, b.key));
    const limit = options.limit ?? Infinity;
    for (const entry of inRange.slice(0, limit)) yield { key: this.spec.keySerde.deserialize(entry.key), value: this.face(entry) };
  }

  private readOnly(): never {
    throw new Error(`global store '${this.name}' is written by its topic only: processors may read it, not write it`);
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

  store(name: string): GlobalKeyValueStore | undefined {
    return this.byName.get(name);
  }

  ofTopic(topic: string): GlobalKeyValueStore | undefined {
    return this.byTopic.get(topic);
  }
}
