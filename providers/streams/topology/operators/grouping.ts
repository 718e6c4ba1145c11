/**
 * Grouping a stream by its key or a new one, the repartition topic a grouping goes through when the key may have
 * changed (Kafka Streams' KGroupedStreamImpl and its repartition node), and what every aggregation adds after its
 * groupings — one grouped stream, or several for a cogroup (Kafka Streams' CogroupedStreamAggregateBuilder).
 */
import type { Grouped, Materialized, MaterializedStoreOptions } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { BytesStoreSupplier, StoreType } from "../../../../kernel/contracts/streams/stores";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import { nextStream, versionedIfSo, type GroupedStreamHandle, type StreamHandle, type TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import type { StoreDef } from "../topology-model";
import { passThroughProcessor } from "../processor-shapes";
import type { TableOperator } from "../table-changes";
import { selectKeyProcessor } from "./stateless";

export function groupByKey(parent: StreamHandle, grouped: Grouped<any, any>): GroupedStreamHandle {
  return { stream: parent, grouped, needsRepartition: parent.keyChanged };
}

/** Re-keys the stream; records then flow through a repartition topic. */
export function groupBy(builder: InternalTopologyBuilder, parent: StreamHandle, selector: (key: any, value: any) => unknown, grouped: Grouped<any, any>): GroupedStreamHandle {
  const rekeyed = nextStream(builder, parent, "groupby", selectKeyProcessor(selector), undefined, { key: undefined, keyChanged: true });
  return { stream: rekeyed, grouped, needsRepartition: true };
}

/**
 * Writes the records of `parent` to a repartition topic and reads them back; returns the new source. The topic has
 * `partitions` partitions when given, else as many as its sub-topologies call for (see ensureTopics).
 */
export function repartition(builder: InternalTopologyBuilder, parent: string, baseName: string, keySerde: SerdeSpec, valueSerde: SerdeSpec, partitions?: number): string {
  const topic = `${builder.applicationId}-${baseName}-repartition`;
  builder.definition.repartitionTopics.add(topic);
  if (partitions !== undefined) builder.definition.repartitionPartitions.set(topic, partitions);
  builder.addSink(topic, keySerde, valueSerde, parent, `${baseName}-repartition-sink`);
  return builder.addSource([topic], keySerde, valueSerde, `${baseName}-repartition-source`);
}

export function groupedValueSerde(grouping: GroupedStreamHandle): SerdeSpec {
  return grouping.grouped.valueSerde ?? grouping.stream.valueSerde;
}

/** What an aggregation names, serializes, caches and logs its store with (a DSL Materialized). */
export interface MaterializedStore extends MaterializedStoreOptions<BytesStoreSupplier> {
  storeName: string;
  keySerde?: SerdeSpec;
  valueSerde?: SerdeSpec;
}

/** The kind of store an aggregation keeps, and how much time it holds. */
export interface AggregationStore {
  type: StoreType;
  windowSizeMs?: number;
  retentionMs?: number;
  /** A versioned store's (Materialized with a versioned store): how long replaced versions stay readable. */
  historyRetentionMs?: number;
  /** Small stores of the processor's own beside it (a last emit time), each one long per string key. */
  companions?: string[];
}

export type Aggregator = (key: any, value: any, aggregate: any) => any;

/** How an aggregate starts, and how one grouped stream folds a value into it. */
export interface Fold {
  initializer: () => unknown;
  aggregator: Aggregator;
}

/** A kind of aggregation (Kafka Streams' KStreamAggregate, KStreamWindowAggregate, …): its store and its processor. */
export interface Aggregation {
  /** The prefix of its processors' names. */
  prefix: string;
  /** The table it makes, answering for old values and lookups (see aggregate's AggregationTable). */
  operator: TableOperator;
  store: AggregationStore;
  /** A processor that folds records into the store; a cogroup has one per grouped stream, each with its aggregator. */
  processor(fold: Fold): ProcessorSupplier<any, any, any, any>;
  /** The aggregation's table as its kind makes it (windowed keys, when windows close); unchanged by default. */
  table?(table: TableHandle): TableHandle;
}

/** One grouped stream of an aggregation and the aggregator it folds with. */
export interface AggregationInput {
  grouping: GroupedStreamHandle;
  aggregator: Aggregator;
}

/**
 * Adds an aggregation after its groupings (one; several for a cogroup): a repartition topic for each whose key may
 * have changed (named after the grouping, or else the store; a grouping's other aggregations read the same topic),
 * the store, and a processor per grouping, all keeping the one store; a cogroup's processors forward into one node
 * (Kafka Streams' cogroup merge). Serdes not materialized are the first grouping's key serde and `defaultValueSerde`.
 */
export function addAggregation(
  builder: InternalTopologyBuilder,
  inputs: AggregationInput[],
  materialized: MaterializedStore,
  aggregation: Aggregation,
  initializer: () => unknown,
  defaultValueSerde: SerdeSpec,
): TableHandle {
  const { storeName } = materialized;
  const { type, companions = [], ...extent } = aggregation.store;
  const keySerdeOf = ({ grouping }: AggregationInput) => grouping.grouped.keySerde ?? grouping.stream.keySerde;
  const parents = inputs.map((input, index) => {
    const { grouping } = input;
    if (!grouping.needsRepartition) return grouping.stream.node;
    const name = grouping.grouped.name ?? (inputs.length > 1 ? `${storeName}-${index}` : storeName);
    return (grouping.repartitionSource ??= repartition(builder, grouping.stream.node, name, keySerdeOf(input), groupedValueSerde(grouping)));
  });
  const keySerde = materialized.keySerde ?? keySerdeOf(inputs[0]);
  const valueSerde = materialized.valueSerde ?? defaultValueSerde;
  builder.addStore({ name: storeName, type, keySerde, valueSerde, ...extent, ...storeOptions(materialized) });
  for (const companion of companions) builder.addStore({ name: companion, type: "key_value", keySerde: "string", valueSerde: "long" });
  const stores = [storeName, ...companions];
  const nodes = inputs.map(({ aggregator }, index) => builder.addProcessor(aggregation.prefix, aggregation.processor({ initializer, aggregator }), [parents[index]], stores));
  const node = nodes.length === 1 ? nodes[0] : builder.addProcessor("cogroup-merge", passThroughProcessor(), nodes);
  const table: TableHandle = { node, storeName, keySerde, valueSerde, operator: aggregation.operator, versionedStore: versionedIfSo(storeName, type) };
  return aggregation.table?.(table) ?? table;
}

/** The caching and changelog configs a Materialized gives its store, only those it sets. */
export function storeOptions({ caching, changelogConfigs, logging, storeSupplier }: MaterializedStoreOptions<BytesStoreSupplier>): Omit<MaterializedStoreOptions, "storeSupplier"> & { bytesStoreSupplier?: BytesStoreSupplier } {
  const options: ReturnType<typeof storeOptions> = {};
  if (caching !== undefined) options.caching = caching;
  if (changelogConfigs !== undefined) options.changelogConfigs = { ...changelogConfigs };
  if (logging === false) options.logging = false;
  if (storeSupplier !== undefined) options.bytesStoreSupplier = storeSupplier;
  return options;
}

/** The store of a table as `materialized` asks for it: its type (timestamped by default), history, caching, logging, supplier. */
export function materializedTableStore(name: string, materialized: Materialized<any, any> | undefined, keySerde: SerdeSpec | undefined, valueSerde: SerdeSpec | undefined): StoreDef {
  return { name, type: materialized?.storeType ?? "timestamped_key_value", keySerde, valueSerde, historyRetentionMs: materialized?.historyRetentionMs, ...storeOptions(materialized ?? {}) };
}
