/**
 * The stream and table types of the DSL (Kafka Streams' KStream, KTable, KGroupedStream, KGroupedTable,
 * TimeWindowedKStream, SessionWindowedKStream). They name one another — a stream groups into a grouped stream, that
 * aggregates into a table, a table turns back into a stream — so they share this file rather than import each other
 * in a circle.
 */
import type { FixedKeyProcessorSupplier, ProcessorSupplier } from "../processor";
import type { KeyValue } from "../stores";
import type { GlobalKTable } from "./global-ktable";
import type { Grouped } from "./grouped";
import type { JoinWindows } from "./join-windows";
import type { Materialized, SessionMaterialized, WindowMaterialized } from "./materialized";
import type { Produced, TopicNameExtractor } from "./produced";
import type { Repartitioned } from "./repartitioned";
import type { Joined } from "./joined";
import type { StreamJoined } from "./stream-joined";
import type { Suppressed } from "./suppressed";
import type { TableJoined } from "./table-joined";
import type { ValueTransformerWithKeySupplier } from "./value-transformer";
import type { EmitStrategy, SessionWindows, SlidingWindows, TimeWindows, Windowed } from "./windows";

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
  /**
   * Splits the stream into branches (Kafka Streams' split): a record goes to the first branch whose predicate it
   * matches, else to the default branch if there is one. `name` prefixes the branches' names.
   */
  split(name?: string): BranchedKStream<K, V>;
  merge(other: KStream<K, V>, name?: string): KStream<K, V>;
  groupByKey(grouped?: Grouped<K, V>): KGroupedStream<K, V>;
  /** Re-keys the stream; records then flow through a repartition topic. */
  groupBy<KR>(selector: (key: K, value: V) => KR, grouped?: Grouped<KR, V>): KGroupedStream<KR, V>;
  /**
   * Writes the stream to a repartition topic and reads it back (Kafka Streams' repartition): each record then sits in
   * the partition of its (new) key.
   */
  repartition(repartitioned?: Repartitioned<K, V>): KStream<K, V>;
  /**
   * The stream as a table's changelog (Kafka Streams' toTable): each record updates its key's row, a null value
   * deletes it. A stream whose key may have changed is repartitioned first.
   */
  toTable(materialized?: Materialized<K, V>, name?: string): KTable<K, V>;
  /**
   * Inner join with a co-partitioned table: records whose key has no table value are dropped. `named`: the join's
   * name, or a Joined (serdes, name, and a grace period for a versioned table; see Joined.gracePeriodMs).
   */
  join<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT) => VR, named?: string | Joined<K, V, VT>): KStream<K, VR>;
  /**
   * Windowed inner join with another stream (Kafka Streams' KStream.join(KStream, ValueJoiner, JoinWindows,
   * StreamJoined)): each record joins every record of the other stream with its key within `windows`; the result has
   * the later of the two timestamps. The joiner also gets the key, as Kafka Streams' ValueJoinerWithKey does. A stream
   * whose key may have changed is repartitioned first.
   */
  join<VO, VR>(
    other: KStream<K, VO>,
    joiner: (value: V, otherValue: VO, key: K) => VR,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>,
  ): KStream<K, VR>;
  /**
   * Inner join with a global table (Kafka Streams' join(GlobalKTable, KeyValueMapper, ValueJoinerWithKey)): each
   * record looks up the row whose key `keySelector` picks, in the global store as it is when the record is processed
   * (the table is not synchronised with the stream's time). No repartition, no co-partitioning. A record with a null
   * value, a null selected key or no row is dropped. The joiner also gets the stream record's key (read-only).
   */
  join<GK, GV, VR>(globalTable: GlobalKTable<GK, GV>, keySelector: (key: K, value: V) => GK | null, joiner: (value: V, globalValue: GV, key: K) => VR, name?: string): KStream<K, VR>;
  leftJoin<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT | null) => VR, named?: string | Joined<K, V, VT>): KStream<K, VR>;
  /**
   * Windowed left join: as join, and a record of this stream that joined nothing once its window (and grace) closed
   * is emitted with a null other value then, never before (Kafka Streams 3.x+).
   */
  leftJoin<VO, VR>(
    other: KStream<K, VO>,
    joiner: (value: V, otherValue: VO | null, key: K) => VR,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>,
  ): KStream<K, VR>;
  /**
   * Left join with a global table: as join, and a record whose selected key has no row joins null. A record with a
   * null value is dropped, as in every stream join.
   */
  leftJoin<GK, GV, VR>(globalTable: GlobalKTable<GK, GV>, keySelector: (key: K, value: V) => GK | null, joiner: (value: V, globalValue: GV | null, key: K) => VR, name?: string): KStream<K, VR>;
  /** Windowed outer join: as leftJoin, for the records of either stream. */
  outerJoin<VO, VR>(
    other: KStream<K, VO>,
    joiner: (value: V | null, otherValue: VO | null, key: K) => VR,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>,
  ): KStream<K, VR>;
  process<KR, VR>(supplier: ProcessorSupplier<K, V, KR, VR>, stores?: string[], name?: string): KStream<KR, VR>;
  /** The Processor API for values only (Kafka Streams' processValues): the key stays, so the stream needs no repartition. */
  processValues<VR>(supplier: FixedKeyProcessorSupplier<K, V, VR>, stores?: string[], name?: string): KStream<K, VR>;
  /** Writes to one topic, or to the topic a TopicNameExtractor names for each record. */
  to(topic: string | TopicNameExtractor<K, V>, produced?: Produced<K, V>): void;
  /** Sends every record into the application's declared event stream of that type. */
  toEventStream(type: string, name?: string): void;
}

/**
 * The branches of `split()` (Kafka Streams' BranchedKStream). The map it ends with holds the branches by name: the
 * split's name followed by the branch's (or its number: 1 for the first predicate, 0 for the default branch).
 */
export interface BranchedKStream<K, V> {
  branch(predicate: (key: K, value: V) => boolean, branched?: Branched<K, V>): BranchedKStream<K, V>;
  defaultBranch(branched?: Branched<K, V>): Map<string, KStream<K, V>>;
  noDefaultBranch(): Map<string, KStream<K, V>>;
}

/**
 * One branch of `split()` (Kafka Streams' Branched): its name, and what is done with its stream. `withFunction`'s
 * result goes in the map (unless null or undefined); after `withConsumer` the branch is not in the map; with
 * neither, the branch's own stream is.
 */
export interface Branched<K, V> {
  readonly name?: string;
  readonly withFunction?: (branch: KStream<K, V>) => KStream<K, V> | null | undefined;
  readonly withConsumer?: (branch: KStream<K, V>) => void;
}

/**
 * A table (Kafka Streams' KTable): a changelog read as the latest value per key. Its operators send each change of a
 * row downstream, and compute the rows of a table not materialized from those of its parent when a join or a query
 * reads them. Every row keeps the timestamp of the record that made it.
 */
export interface KTable<K, V> {
  /**
   * The store a query reads: the table's own, or, for a table not materialized, the store it derives its rows from.
   * Prefer queryableStoreName(), which says whether the table itself is queryable.
   */
  readonly storeName: string;
  /** The name of the table's own store, or null when it keeps none (Kafka Streams' queryableStoreName). */
  queryableStoreName(): string | null;
  /** Rows that fail the predicate are deleted (a row that stops passing sends a tombstone downstream). */
  filter(predicate: (key: K, value: V) => boolean, materialized?: Materialized<K, V>, name?: string): KTable<K, V>;
  filterNot(predicate: (key: K, value: V) => boolean, materialized?: Materialized<K, V>, name?: string): KTable<K, V>;
  mapValues<VR>(mapper: (value: V, key: K) => VR, materialized?: Materialized<K, VR>, name?: string): KTable<K, VR>;
  /** mapValues with store access; `stores` names the stores the transformer reads (declared with addStateStore). */
  transformValues<VR>(
    supplier: ValueTransformerWithKeySupplier<K, V, VR>,
    stores?: string[],
    materialized?: Materialized<K, VR>,
    name?: string,
  ): KTable<K, VR>;
  /** The table's changes as a stream: each update, a deleted row as a null value. */
  toStream(name?: string): KStream<K, V>;
  /** The table's changes as a stream keyed by `keyMapper` (Kafka Streams' toStream(KeyValueMapper)). */
  toStream<KR>(keyMapper: (key: K, value: V) => KR, name?: string): KStream<KR, V>;
  /**
   * Re-keys the rows for an aggregation (Kafka Streams' KTable.groupBy): when a row changes, its old key and value
   * are subtracted from their group and the new ones added to theirs. The changes flow through a repartition topic.
   */
  groupBy<KR, VR>(selector: (key: K, value: V) => KeyValue<KR, VR>, grouped?: Grouped<KR, VR>): KGroupedTable<KR, VR>;
  /** Inner join with a co-partitioned table on the key: a row for each key both have. */
  join<VO, VR>(other: KTable<K, VO>, joiner: (value: V, otherValue: VO) => VR, materialized?: Materialized<K, VR>, name?: string): KTable<K, VR>;
  /**
   * Foreign-key join (Kafka Streams' join(KTable, Function, ValueJoiner)): each row of this table joins the row of
   * `other` whose key `foreignKeyExtractor` takes from its value (and key, KIP-1104). The tables need not be
   * co-partitioned.
   */
  join<VR, KO, VO>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: (value: V, key: K) => KO,
    joiner: (value: V, otherValue: VO) => VR,
    tableJoined?: TableJoined,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  /** Left join on the key: a row for each key of this table, `otherValue` null where `other` has none. */
  leftJoin<VO, VR>(other: KTable<K, VO>, joiner: (value: V, otherValue: VO | null) => VR, materialized?: Materialized<K, VR>, name?: string): KTable<K, VR>;
  /** Foreign-key left join: a row of this table whose foreign key is null or has no row in `other` joins null. */
  leftJoin<VR, KO, VO>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: (value: V, key: K) => KO | null,
    joiner: (value: V, otherValue: VO | null) => VR,
    tableJoined?: TableJoined,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  /** Outer join on the key: a row for each key of either table, the missing side null. */
  outerJoin<VO, VR>(other: KTable<K, VO>, joiner: (value: V | null, otherValue: VO | null) => VR, materialized?: Materialized<K, VR>, name?: string): KTable<K, VR>;
  /** Holds updates back and forwards them later (Kafka Streams' suppress): see Suppressed. */
  suppress(suppressed: Suppressed): KTable<K, V>;
}

/**
 * A table re-keyed for aggregation (Kafka Streams' KGroupedTable): each change arrives as the subtraction of the
 * old value from its group and the addition of the new value to its group.
 */
export interface KGroupedTable<K, V> {
  count(materialized?: Materialized<K, number>, name?: string): KTable<K, number>;
  reduce(adder: (aggregate: V, value: V) => V, subtractor: (aggregate: V, value: V) => V, materialized?: Materialized<K, V>, name?: string): KTable<K, V>;
  aggregate<VA>(
    initializer: () => VA,
    adder: (key: K, value: V, aggregate: VA) => VA,
    subtractor: (key: K, value: V, aggregate: VA) => VA,
    materialized?: Materialized<K, VA>,
    name?: string,
  ): KTable<K, VA>;
}

export interface KGroupedStream<K, V> {
  count(materialized: Materialized<K, number>): KTable<K, number>;
  reduce(reducer: (aggregate: V, value: V) => V, materialized: Materialized<K, V>): KTable<K, V>;
  aggregate<VA>(
    initializer: () => VA,
    aggregator: (key: K, value: V, aggregate: VA) => VA,
    materialized: Materialized<K, VA>,
  ): KTable<K, VA>;
  /** Time windows and sliding windows are validated with Kafka Streams' rules; a bad definition is an error here. */
  windowedBy(windows: TimeWindows | SlidingWindows): TimeWindowedKStream<K, V>;
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
  /**
   * Starts an aggregation of several grouped streams into one table (Kafka Streams' cogroup): each stream folds its
   * records into the key's aggregate with its own aggregator. The streams must be keyed alike (co-partitioned).
   */
  cogroup<VOut>(aggregator: (key: K, value: V, aggregate: VOut) => VOut): CogroupedKStream<K, VOut>;
}

/** Grouped streams aggregated together (Kafka Streams' CogroupedKStream). */
export interface CogroupedKStream<K, VOut> {
  cogroup<V>(groupedStream: KGroupedStream<K, V>, aggregator: (key: K, value: V, aggregate: VOut) => VOut): CogroupedKStream<K, VOut>;
  aggregate(initializer: () => VOut, materialized: Materialized<K, VOut>): KTable<K, VOut>;
  windowedBy(windows: TimeWindows | SlidingWindows): TimeWindowedCogroupedKStream<K, VOut>;
  windowedBy(windows: SessionWindows): SessionWindowedCogroupedKStream<K, VOut>;
}

export interface TimeWindowedCogroupedKStream<K, VOut> {
  aggregate(initializer: () => VOut, materialized: WindowMaterialized<K, VOut>): KTable<Windowed<K>, VOut>;
}

export interface SessionWindowedCogroupedKStream<K, VOut> {
  aggregate(initializer: () => VOut, merger: (key: K, left: VOut, right: VOut) => VOut, materialized: SessionMaterialized<K, VOut>): KTable<Windowed<K>, VOut>;
}

/** A grouped stream over time or sliding windows (Kafka Streams' TimeWindowedKStream). */
export interface TimeWindowedKStream<K, V> {
  /** When windows are forwarded: every update (the default) or once, when they close. */
  emitStrategy(strategy: EmitStrategy): TimeWindowedKStream<K, V>;
  count(materialized: WindowMaterialized<K, number>): KTable<Windowed<K>, number>;
  reduce(reducer: (aggregate: V, value: V) => V, materialized: WindowMaterialized<K, V>): KTable<Windowed<K>, V>;
  aggregate<VA>(
    initializer: () => VA,
    aggregator: (key: K, value: V, aggregate: VA) => VA,
    materialized: WindowMaterialized<K, VA>,
  ): KTable<Windowed<K>, VA>;
}

export interface SessionWindowedKStream<K, V> {
  /** When sessions are forwarded: every update and merge (the default) or once, when they close. */
  emitStrategy(strategy: EmitStrategy): SessionWindowedKStream<K, V>;
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
