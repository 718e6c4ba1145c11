/**
 * The Processor API inside the DSL (Kafka Streams' KStream.process and StreamsBuilder.addStateStore): a user's
 * processor connected to stores declared by name. Its outputs' key and serdes are unknown.
 */
import type { StoreDeclaration } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import type { StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";

export function addStateStore(builder: InternalTopologyBuilder, store: StoreDeclaration): void {
  builder.addStore({ ...store, keySerde: store.keySerde as SerdeSpec, valueSerde: store.valueSerde as SerdeSpec });
}

export function process(
  builder: InternalTopologyBuilder,
  parent: StreamHandle,
  supplier: ProcessorSupplier<any, any, any, any>,
  stores: string[],
  name?: string,
): StreamHandle {
  const node = builder.addProcessor("process", supplier, [parent.node], stores, name);
  return { node, keySerde: undefined, valueSerde: undefined, keyChanged: true };
}
