/**
 * The Processor API inside the DSL (Kafka Streams' KStream.process and StreamsBuilder.addStateStore): a user's
 * processor connected to stores declared by name. Its outputs' key and serdes are unknown.
 */
import type { StoreBuilder, StoreDeclaration } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
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
