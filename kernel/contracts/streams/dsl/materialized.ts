/** The store an aggregation or a table is kept in (Kafka Streams' Materialized), per kind of store. */
import type { SerdeRef } from "./serde-ref";

/** How a materialized store is cached and logged, whatever its kind. */
export interface MaterializedStoreOptions {
  /** False keeps the store's updates out of the record cache (Kafka Streams' withCachingDisabled); default true. */
  caching?: boolean;
  /** Topic configs of the store's changelog over Kafka Streams' defaults (Kafka Streams' withLoggingEnabled(config)). */
  changelogConfig?: Record<string, string>;
}

export interface Materialized<K, V> extends MaterializedStoreOptions {
  storeName: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** For tables and non-windowed aggregates; default key_value (Kafka Streams keeps timestamps: timestamped_key_value). */
  storeType?: "key_value" | "timestamped_key_value";
}

export interface WindowMaterialized<K, V> extends MaterializedStoreOptions {
  storeName: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Default window. */
  storeType?: "window" | "timestamped_window";
  /** How long windows are kept; default and minimum: window size + grace. */
  retentionMs?: number;
}

export interface SessionMaterialized<K, V> extends MaterializedStoreOptions {
  storeName: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  retentionMs?: number;
}
