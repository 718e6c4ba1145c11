/** The store an aggregation or a table is kept in (Kafka Streams' Materialized), per kind of store. */
import type { BytesStoreSupplier, KeyValueBytesStoreSupplier, SessionBytesStoreSupplier, WindowBytesStoreSupplier } from "../stores";
import type { SerdeRef } from "./serde-ref";

/** How a materialized store is cached and logged, whatever its kind. */
export interface MaterializedStoreOptions<Supplier extends BytesStoreSupplier = KeyValueBytesStoreSupplier> {
  /** False keeps the store's updates out of the record cache (Kafka Streams' withCachingDisabled); default true. */
  caching?: boolean;
  /** Topic configs of the store's changelog over Kafka Streams' defaults (Kafka Streams' withLoggingEnabled(config)). */
  changelogConfigs?: Record<string, string>;
  /**
   * False: the store keeps no changelog (Kafka Streams' withLoggingDisabled). Nothing restores it: a task that moves,
   * or whose local state is behind its group's offsets after a crash, starts it empty. Default true.
   */
  logging?: boolean;
  /**
   * The user's own store the data lives in (Kafka Streams' Materialized.as(supplier)), named as the store: a
   * KeyValueBytesStoreSupplier for tables and aggregations, a WindowBytesStoreSupplier for windowed aggregations (its
   * window size and retention are the store's, unchecked against the windows, as in Kafka Streams), a
   * SessionBytesStoreSupplier for session ones. A new one is got, and restored from its changelog, each time its task
   * is opened.
   */
  storeSupplier?: Supplier;
}

export interface Materialized<K, V> extends MaterializedStoreOptions {
  /**
   * Names the store, which makes the table queryable under that name. Without one, an aggregation or a join keeps
   * its store under a generated name, and a table operator that needs no store of its own (filter, mapValues,
   * transformValues) keeps none: it computes its rows from its parent's.
   */
  storeName?: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /**
   * For tables and non-windowed aggregates. Default timestamped_key_value: each row keeps the timestamp of the
   * record that made it, as Kafka Streams' tables do. key_value keeps values only (a join then takes a row's
   * timestamp as unknown). versioned_key_value (a table read from a topic or made by toTable only) keeps each row's
   * versions for `historyRetentionMs` (Kafka Streams' Materialized.as(Stores.persistentVersionedKeyValueStore(...))):
   * a stream joined to it meets the row valid at each stream record's timestamp.
   */
  storeType?: "key_value" | "timestamped_key_value" | "versioned_key_value";
  /** versioned_key_value: how long replaced versions stay readable (required for that type). */
  historyRetentionMs?: number;
}

export interface WindowMaterialized<K, V> extends MaterializedStoreOptions<WindowBytesStoreSupplier> {
  storeName: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Default timestamped_window: each window keeps the largest timestamp of its records, as Kafka Streams' do. */
  storeType?: "window" | "timestamped_window";
  /** How long windows are kept; default and minimum: window size + grace. */
  retentionMs?: number;
}

export interface SessionMaterialized<K, V> extends MaterializedStoreOptions<SessionBytesStoreSupplier> {
  storeName: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  retentionMs?: number;
}
