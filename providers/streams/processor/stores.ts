/**
 * Kafka Streams' Stores factory, for Processor API stores: suppliers by Kafka Streams' names, and builders that add
 * the serdes, the face processors get (plain or timestamped) and caching, for `StreamsBuilder.addStateStore`.
 */
import type { SerdeRef, StoreBuilder, StoreDeclaration, StoreSupplier } from "../../../kernel/contracts/streams/dsl";
import type { BytesStoreSupplier, KeyValueBytesStoreSupplier, SessionBytesStoreSupplier, StoreType, WindowBytesStoreSupplier } from "../../../kernel/contracts/streams/stores";

function positive(value: number, what: string, store: string): number {
  if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${what} of store '${store}' must be a positive number of ms, got ${value}`);
  return value;
}

/** `retainDuplicates`: each put adds a window beside those of the same key and start (see StoreSpec.retainDuplicates). */
function windowSupplier(name: string, retentionMs: number, windowSizeMs: number, retainDuplicates: boolean): StoreSupplier {
  positive(windowSizeMs, "the window size", name);
  if (positive(retentionMs, "the retention", name) < windowSizeMs) throw new RangeError(`the retention of store '${name}' (${retentionMs} ms) must not be shorter than its window (${windowSizeMs} ms)`);
  return { name, kind: "window", retentionMs, windowSizeMs, retainDuplicates };
}

/**
 * Kafka Streams' persistentVersionedKeyValueStore: the history retention is also how late a put may come. A segment
 * interval is checked as Kafka Streams checks it; Sluice's versioned stores keep each key's versions together and
 * expire them one by one, so it changes nothing else.
 */
function versionedSupplier(name: string, historyRetentionMs: number, segmentIntervalMs?: number): StoreSupplier {
  if (!(Number.isInteger(historyRetentionMs) && historyRetentionMs >= 0)) throw new RangeError(`the history retention of store '${name}' must be 0 or more ms, got ${historyRetentionMs}`);
  if (segmentIntervalMs !== undefined) positive(segmentIntervalMs, "the segment interval", name);
  return { name, kind: "versioned_key_value", historyRetentionMs };
}

class DeclaredStoreBuilder implements StoreBuilder {
  private caching = false;
  private changelogConfigs: Record<string, string> | undefined;
  private logging = true;

  constructor(
    private readonly supplier: StoreSupplier & { bytesStoreSupplier?: BytesStoreSupplier },
    private readonly type: StoreType,
    private readonly keySerde?: SerdeRef<any>,
    private readonly valueSerde?: SerdeRef<any>,
  ) {}

  get name(): string {
    return this.supplier.name;
  }

  withCachingEnabled(): StoreBuilder {
    if (this.type === "versioned_key_value") throw new Error(`store '${this.name}': versioned stores do not support caching`);
    this.caching = true;
    return this;
  }

  withCachingDisabled(): StoreBuilder {
    this.caching = false;
    return this;
  }

  withLoggingEnabled(config: Record<string, string>): StoreBuilder {
    this.changelogConfigs = { ...config };
    this.logging = true;
    return this;
  }

  withLoggingDisabled(): StoreBuilder {
    this.changelogConfigs = undefined;
    this.logging = false;
    return this;
  }

  declaration(): StoreDeclaration {
    const { name, windowSizeMs, retentionMs, retainDuplicates, historyRetentionMs, inMemory } = this.supplier;
    const declaration: StoreDeclaration = { name, type: this.type, keySerde: this.keySerde, valueSerde: this.valueSerde, windowSizeMs, retentionMs, retainDuplicates, historyRetentionMs, caching: this.caching };
    if (this.changelogConfigs !== undefined) declaration.changelogConfigs = this.changelogConfigs;
    if (!this.logging) declaration.logging = false;
    if (this.supplier.bytesStoreSupplier !== undefined) declaration.bytesStoreSupplier = this.supplier.bytesStoreSupplier;
    if (inMemory === true) declaration.inMemory = true;
    return declaration;
  }
}

function builderOf(supplier: StoreSupplier, kind: StoreSupplier["kind"], type: StoreType, keySerde?: SerdeRef<any>, valueSerde?: SerdeRef<any>): StoreBuilder {
  if (supplier.kind !== kind) throw new Error(`store '${supplier.name}' is a ${supplier.kind} store, not a ${kind} store`);
  return new DeclaredStoreBuilder(supplier, type, keySerde, valueSerde);
}

/**
 * Takes the Stores factory's suppliers and a user's own bytes store supplier alike (whose kind the topology checks,
 * and whose extent it takes, when the store is added: see InternalTopologyBuilder.addStore).
 */
function userOrFactoryBuilder(supplier: StoreSupplier | BytesStoreSupplier, kind: StoreSupplier["kind"], type: StoreType, keySerde?: SerdeRef<any>, valueSerde?: SerdeRef<any>): StoreBuilder {
  if (typeof (supplier as Partial<BytesStoreSupplier>).get !== "function") return builderOf(supplier as StoreSupplier, kind, type, keySerde, valueSerde);
  supplier = supplier as BytesStoreSupplier;
  return new DeclaredStoreBuilder({ name: supplier.name, kind, bytesStoreSupplier: supplier }, type, keySerde, valueSerde);
}

const keyValueSupplier = (name: string): StoreSupplier => ({ name, kind: "key_value" });
const sessionSupplier = (name: string, retentionMs: number): StoreSupplier => ({ name, kind: "session", retentionMs: positive(retentionMs, "the retention", name) });

/** Kafka Streams' in-memory supplier of the same store: restored from its changelog whenever its task is opened. */
const inMemory = (supplier: StoreSupplier): StoreSupplier => ({ ...supplier, inMemory: true });

/**
 * Serdes not given are the application's defaults. The in-memory suppliers' stores live in the task's LevelDB while
 * it is assigned, like the others, but are dropped and restored from their changelogs each time the task is opened.
 */
export const Stores = {
  persistentKeyValueStore: keyValueSupplier,
  persistentTimestampedKeyValueStore: keyValueSupplier,
  persistentWindowStore: (name: string, retentionMs: number, windowSizeMs: number, retainDuplicates = false): StoreSupplier =>
    windowSupplier(name, retentionMs, windowSizeMs, retainDuplicates),
  persistentTimestampedWindowStore: (name: string, retentionMs: number, windowSizeMs: number, retainDuplicates = false): StoreSupplier =>
    windowSupplier(name, retentionMs, windowSizeMs, retainDuplicates),
  persistentVersionedKeyValueStore: (name: string, historyRetentionMs: number, segmentIntervalMs?: number): StoreSupplier =>
    versionedSupplier(name, historyRetentionMs, segmentIntervalMs),
  persistentSessionStore: sessionSupplier,
  inMemoryKeyValueStore: (name: string): StoreSupplier => inMemory(keyValueSupplier(name)),
  inMemoryWindowStore: (name: string, retentionMs: number, windowSizeMs: number, retainDuplicates = false): StoreSupplier =>
    inMemory(windowSupplier(name, retentionMs, windowSizeMs, retainDuplicates)),
  inMemorySessionStore: (name: string, retentionMs: number): StoreSupplier => inMemory(sessionSupplier(name, retentionMs)),
  keyValueStoreBuilder: <K, V>(supplier: StoreSupplier | KeyValueBytesStoreSupplier, keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>): StoreBuilder =>
    userOrFactoryBuilder(supplier, "key_value", "key_value", keySerde, valueSerde),
  timestampedKeyValueStoreBuilder: <K, V>(supplier: StoreSupplier | KeyValueBytesStoreSupplier, keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>): StoreBuilder =>
    userOrFactoryBuilder(supplier, "key_value", "timestamped_key_value", keySerde, valueSerde),
  versionedKeyValueStoreBuilder: <K, V>(supplier: StoreSupplier, keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>): StoreBuilder =>
    builderOf(supplier, "versioned_key_value", "versioned_key_value", keySerde, valueSerde),
  windowStoreBuilder: <K, V>(supplier: StoreSupplier | WindowBytesStoreSupplier, keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>): StoreBuilder =>
    userOrFactoryBuilder(supplier, "window", "window", keySerde, valueSerde),
  timestampedWindowStoreBuilder: <K, V>(supplier: StoreSupplier | WindowBytesStoreSupplier, keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>): StoreBuilder =>
    userOrFactoryBuilder(supplier, "window", "timestamped_window", keySerde, valueSerde),
  sessionStoreBuilder: <K, V>(supplier: StoreSupplier | SessionBytesStoreSupplier, keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>): StoreBuilder =>
    userOrFactoryBuilder(supplier, "session", "session", keySerde, valueSerde),
};
