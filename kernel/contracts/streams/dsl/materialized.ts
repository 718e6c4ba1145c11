/** The store an aggregation or a table is kept in (Kafka Streams' Materialized), per kind of store. */
import type { SerdeRef } from "./serde-ref";

export interface Materialized<K, V> {
  storeName: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** For tables and non-windowed aggregates; default key_value (Kafka Streams keeps timestamps: timestamped_key_value). */
  storeType?: "key_value" | "timestamped_key_value";
}

export interface WindowMaterialized<K, V> {
  storeName: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Default window. */
  storeType?: "window" | "timestamped_window";
  /** How long windows are kept; default and minimum: window size + grace. */
  retentionMs?: number;
}

export interface SessionMaterialized<K, V> {
  storeName: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  retentionMs?: number;
}
