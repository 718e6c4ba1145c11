/**
 * Grouping a stream by its key or a new one, and the repartition topic a grouping goes through when the key may
 * have changed (Kafka Streams' KGroupedStreamImpl and its repartition node): the aggregations read from there.
 */
import type { Grouped } from "../../../../kernel/contracts/streams/dsl";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import { nextStream, type GroupedStreamHandle, type StreamHandle } from "../dsl-handles";
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

/** Writes the records of `parent` to a repartition topic and reads them back; returns the new source. */
export function repartition(builder: InternalTopologyBuilder, parent: string, baseName: string, keySerde: SerdeSpec, valueSerde: SerdeSpec): string {
  const topic = `${builder.applicationId}-${baseName}-repartition`;
  builder.definition.repartitionTopics.add(topic);
  builder.addSink(topic, keySerde, valueSerde, parent, `${baseName}-repartition-sink`);
  return builder.addSource([topic], keySerde, valueSerde, `${baseName}-repartition-source`);
}

export interface AggregationInput {
  parent: string;
  keySerde: SerdeSpec;
  valueSerde: SerdeSpec;
}

export function groupedValueSerde(grouping: GroupedStreamHandle): SerdeSpec {
  return grouping.grouped.valueSerde ?? grouping.stream.valueSerde;
}

/** The node an aggregation reads from: the stream itself, or a repartition topic's source. */
export function aggregationInput(builder: InternalTopologyBuilder, grouping: GroupedStreamHandle, storeName: string): AggregationInput {
  const keySerde = grouping.grouped.keySerde ?? grouping.stream.keySerde;
  const valueSerde = groupedValueSerde(grouping);
  const parent = grouping.needsRepartition
    ? repartition(builder, grouping.stream.node, grouping.grouped.name ?? storeName, keySerde, valueSerde)
    : grouping.stream.node;
  return { parent, keySerde, valueSerde };
}
