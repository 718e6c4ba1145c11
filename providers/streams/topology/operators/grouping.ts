/**
 * Grouping a stream by its key or a new one, and the repartition topic a grouping goes through when the key may
 * have changed (Kafka Streams' KGroupedStreamImpl and its repartition node): the aggregations read from there.
 */
import type { Grouped } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { StoreType } from "../../../../kernel/contracts/streams/stores";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import { nextStream, type GroupedStreamHandle, type StreamHandle, type TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
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

/** What an aggregation names and serializes its store with (a DSL Materialized). */
export interface MaterializedStore {
  storeName: string;
  keySerde?: SerdeSpec;
  valueSerde?: SerdeSpec;
}

/** The kind of store an aggregation keeps, and how much time it holds. */
export interface AggregationStore {
  type: StoreType;
  windowSizeMs?: number;
  retentionMs?: number;
}

/** What an aggregation adds; its table's operator is the caller's. */
export type AddedAggregation = Omit<TableHandle, "operator">;

/**
 * Adds an aggregation after its grouping: the repartition topic when the key may have changed (named after the
 * grouping, or else the first aggregation's store; the grouping's other aggregations read the same), the store, and
 * the processor that keeps it. Serdes not materialized are the grouping's key serde and `defaultValueSerde`.
 */
export function addAggregation(
  builder: InternalTopologyBuilder,
  grouping: GroupedStreamHandle,
  materialized: MaterializedStore,
  { type, ...extent }: AggregationStore,
  defaultValueSerde: SerdeSpec,
  prefix: string,
  supplier: ProcessorSupplier<any, any, any, any>,
): AddedAggregation {
  const { storeName } = materialized;
  const inputKeySerde = grouping.grouped.keySerde ?? grouping.stream.keySerde;
  const parent = grouping.needsRepartition
    ? (grouping.repartitionSource ??= repartition(builder, grouping.stream.node, grouping.grouped.name ?? storeName, inputKeySerde, groupedValueSerde(grouping)))
    : grouping.stream.node;
  const keySerde = materialized.keySerde ?? inputKeySerde;
  const valueSerde = materialized.valueSerde ?? defaultValueSerde;
  builder.addStore({ name: storeName, type, keySerde, valueSerde, ...extent });
  const node = builder.addProcessor(prefix, supplier, [parent], [storeName]);
  return { node, storeName, keySerde, valueSerde };
}
