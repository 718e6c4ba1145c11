/**
 * An explicit repartition (Kafka Streams' KStream.repartition with Repartitioned): the stream goes through a topic of
 * its own, named and sized as asked, and comes back with each record in the partition of its key.
 */
import type { Repartitioned } from "../../../../kernel/contracts/streams/dsl";
import type { StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { repartition } from "./grouping";

export function explicitRepartition(builder: InternalTopologyBuilder, parent: StreamHandle, repartitioned: Repartitioned<any, any>): StreamHandle {
  const partitions = repartitioned.numberOfPartitions;
  if (partitions !== undefined && !(Number.isInteger(partitions) && partitions > 0)) {
    throw new Error(`repartition${repartitioned.name ? ` '${repartitioned.name}'` : ""}: numberOfPartitions must be a positive integer, got ${partitions}`);
  }
  const name = repartitioned.name ?? builder.nodeName("repartition");
  const keySerde = repartitioned.keySerde ?? parent.keySerde;
  const valueSerde = repartitioned.valueSerde ?? parent.valueSerde;
  const node = repartition(builder, parent.node, name, keySerde, valueSerde, partitions);
  return { node, keySerde, valueSerde, keyChanged: false };
}
