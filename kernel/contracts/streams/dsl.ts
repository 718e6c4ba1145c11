/**
 * The typed streams DSL, shaped after Kafka Streams' `kstream` package. A topology provider receives a
 * `StreamsBuilder` and describes its topology with it; the runtime compiles and runs the result.
 */
import type { ProcessorSupplier } from "./processor";
import type { Serde } from "./serde";
import type { KeyValue, StoreType } from "./stores";

/** A serde object, or the name of a builtin one: string, json, long, int, double, bytes. */
export type SerdeRef<T> = Serde<T> | "string" | "json" | "long" | "int" | "double" | "bytes";

export type { KeyValue };

/** The key of a windowed aggregate. */
export interface Windowed<K> {
  key: K;
  windowStart: number;
  windowEnd: number;
}

export interface Consumed<K, V> {
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Name of the source node. */
  name?: string;
}

export interface Produced<K, V> {
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Name of the sink node. */
  name?: string;
}

export interface Grouped<K, V> {
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Names the repartition topic `<application.id>-<name>-repartition` when the key changed. */
  name?: string;
}

export interface Materialized<K, V> {
  storeName: string;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** For non-windowed aggregates; default key_value. */
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

/** Event-time windows; `graceMs` (default 0) admits records that arrive late by at most that much. */
export type TimeWindows =
  | { type: "tumbling"; sizeMs: number; graceMs?: number }
  | { type: "hopping"; sizeMs: number; advanceMs: number; graceMs?: number };

export interface SessionWindows {
  type: "session";
  gapMs: number;
  graceMs?: number;
}

/** A state store that Processor API processors connect to by name. */
export interface StoreDeclaration<K = unknown, V = unknown> {
  name: string;
  type: StoreType;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Window stores: the window size. */
  windowSizeMs?: number;
  /** Window and session stores: how long data is kept. */
  retentionMs?: number;
}

export interface StreamsBuilder {
  stream<K = string, V = string>(topics: string | string[], consumed?: Consumed<K, V>): KStream<K, V>;
  /** A table read from a topic, materialized in a key_value store (named after the topic unless given). */
  table<K = string, V = string>(topic: string, consumed?: Consumed<K, V>, materialized?: Materialized<K, V>): KTable<K, V>;
  /** Declares a store for Processor API processors (`KStream.process(supplier, [name])`). */
  addStateStore(store: StoreDeclaration): StreamsBuilder;
}

export interface KStream<K, V> {
  map<KR, VR>(mapper: (key: K, value: V) => KeyValue<KR, VR>, name?: string): KStream<KR, VR>;
  mapValues<VR>(mapper: (value: V, key: K) => VR, name?: string): KStream<K, VR>;
  filter(predicate: (key: K, value: V) => boolean, name?: string): KStream<K, V>;
  filterNot(predicate: (key: K, value: V) => boolean, name?: string): KStream<K, V>;
  flatMap<KR, VR>(mapper: (key: K, value: V) => Iterable<KeyValue<KR, VR>>, name?: string): KStream<KR, VR>;
  flatMapValues<VR>(mapper: (value: V, key: K) => Iterable<VR>, name?: string): KStream<K, VR>;
  selectKey<KR>(mapper: (key: K, value: V) => KR, name?: string): KStream<KR, V>;
  peek(action: (key: K, value: V) => void, name?: string): KStream<K, V>;
  foreach(action: (key: K, value: V) => void, name?: string): void;
  /** One stream per predicate; a record goes to the first predicate it matches, or nowhere. */
  branch(...predicates: ((key: K, value: V) => boolean)[]): KStream<K, V>[];
  merge(other: KStream<K, V>, name?: string): KStream<K, V>;
  groupByKey(grouped?: Grouped<K, V>): KGroupedStream<K, V>;
  /** Re-keys the stream; records then flow through a repartition topic. */
  groupBy<KR>(selector: (key: K, value: V) => KR, grouped?: Grouped<KR, V>): KGroupedStream<KR, V>;
  /** Inner join with a co-partitioned table: records whose key has no table value are dropped. */
  join<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT) => VR, name?: string): KStream<K, VR>;
  leftJoin<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT | null) => VR, name?: string): KStream<K, VR>;
  process<KR, VR>(supplier: ProcessorSupplier<K, V, KR, VR>, stores?: string[], name?: string): KStream<KR, VR>;
  to(topic: string, produced?: Produced<K, V>): void;
  /** Sends every record into the application's declared event stream of that type. */
  toEventStream(type: string, name?: string): void;
}

export interface KTable<K, V> {
  /** The store that holds this table, queryable by the runtime. */
  readonly storeName: string;
  toStream(name?: string): KStream<K, V>;
}

export interface KGroupedStream<K, V> {
  count(materialized: Materialized<K, number>): KTable<K, number>;
  reduce(reducer: (aggregate: V, value: V) => V, materialized: Materialized<K, V>): KTable<K, V>;
  aggregate<VA>(
    initializer: () => VA,
    aggregator: (key: K, value: V, aggregate: VA) => VA,
    materialized: Materialized<K, VA>,
  ): KTable<K, VA>;
  windowedBy(windows: TimeWindows): TimeWindowedKStream<K, V>;
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
}

export interface TimeWindowedKStream<K, V> {
  count(materialized: WindowMaterialized<K, number>): KTable<Windowed<K>, number>;
  reduce(reducer: (aggregate: V, value: V) => V, materialized: WindowMaterialized<K, V>): KTable<Windowed<K>, V>;
  aggregate<VA>(
    initializer: () => VA,
    aggregator: (key: K, value: V, aggregate: VA) => VA,
    materialized: WindowMaterialized<K, VA>,
  ): KTable<Windowed<K>, VA>;
}

export interface SessionWindowedKStream<K, V> {
  count(materialized: SessionMaterialized<K, number>): KTable<Windowed<K>, number>;
  reduce(reducer: (aggregate: V, value: V) => V, materialized: SessionMaterialized<K, V>): KTable<Windowed<K>, V>;
  /** `merger` combines the aggregates of two sessions that a record bridges. */
  aggregate<VA>(
    initializer: () => VA,
    aggregator: (key: K, value: V, aggregate: VA) => VA,
    merger: (key: K, left: VA, right: VA) => VA,
    materialized: SessionMaterialized<K, VA>,
  ): KTable<Windowed<K>, VA>;
}
