/**
 * The Processor API inside the DSL (Kafka Streams' KStream.process, processValues and StreamsBuilder.addStateStore): a
 * user's processor connected to stores declared by name. After `process` the key and serdes are unknown; after
 * `processValues` (a fixed-key processor) the key and its serde are the input's, so no repartition follows.
 */
import type { StoreBuilder, StoreDeclaration } from "../../../../kernel/contracts/streams/dsl";
import type { FixedKeyProcessorSupplier, ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import type { StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";

/** A Processor API store: its processors may range over it. */
export function addStateStore(builder: InternalTopologyBuilder, given: StoreDeclaration | StoreBuilder): void {
  const store = "declaration" in given ? given.declaration() : given;
  builder.addStore({ ...store, keySerde: store.keySerde as SerdeSpec, valueSerde: store.valueSerde as SerdeSpec, rangeable: true });
}

export function process(
  builder: InternalTopologyBuilder,
  parent: StreamHandle,
  supplier: ProcessorSupplier<any, any, any, any>,
  stores: string[],
  name?: string,
): StreamHandle {
  const node = builder.addProcessor("process", supplier, [parent.node], stores, name);
  // A user's processor may range over any store it connects to, the DSL's own included.
  for (const store of stores) builder.definition.stores.get(store)!.rangeable = true;
  return { node, keySerde: undefined, valueSerde: undefined, keyChanged: true };
}

/** A fixed-key processor runs as any processor: its context's forward takes the records it received, changed. */
export function processValues(
  builder: InternalTopologyBuilder,
  parent: StreamHandle,
  supplier: FixedKeyProcessorSupplier<any, any, any>,
  stores: string[],
  name?: string,
): StreamHandle {
  const node = builder.addProcessor("process-values", supplier as ProcessorSupplier<any, any, any, any>, [parent.node], stores, name);
  return { node, keySerde: parent.keySerde, valueSerde: undefined, keyChanged: parent.keyChanged };
}
