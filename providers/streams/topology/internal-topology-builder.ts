/**
 * The graph the DSL's operators add to (Kafka Streams' InternalTopologyBuilder): named source, processor and sink
 * nodes, their edges and their stores, in a TopologyDefinition. It checks what holds for every operator — unique
 * node and store names, known stores, edges only out of sources and processors; each operator checks its own.
 */
import type { ProcessorSupplier, TimestampExtractor } from "../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../serdes/serde-resolver";
import type { StoreDef, TopologyDefinition } from "./topology-model";

export class InternalTopologyBuilder {
  readonly definition: TopologyDefinition = {
    nodes: new Map(),
    stores: new Map(),
    repartitionTopics: new Set(),
    eventTypes: new Set(),
    eventSerdes: new Map(),
  };
  private counter = 0;

  constructor(readonly applicationId: string) {}

  nodeName(prefix: string, given?: string): string {
    const name = given ?? `${prefix}-${this.counter++}`;
    if (this.definition.nodes.has(name)) throw new Error(`topology already has a node named '${name}'`);
    return name;
  }

  /** `timestampExtractor`: none, `default.timestamp.extractor`. */
  addSource(topics: string[], keySerde: SerdeSpec, valueSerde: SerdeSpec, given?: string, timestampExtractor?: TimestampExtractor | string): string {
    const name = this.nodeName("source", given);
    this.definition.nodes.set(name, { kind: "source", name, topics, keySerde, valueSerde, successors: [], timestampExtractor });
    return name;
  }

  addProcessor(prefix: string, supplier: ProcessorSupplier<any, any, any, any>, parents: string[], stores: string[] = [], given?: string): string {
    for (const store of stores) {
      if (!this.definition.stores.has(store)) throw new Error(`processor uses unknown store '${store}'`);
    }
    const name = this.nodeName(prefix, given);
    this.definition.nodes.set(name, { kind: "processor", name, supplier, stores, predecessors: parents, successors: [] });
    this.link(parents, name);
    return name;
  }

  addSink(topic: string, keySerde: SerdeSpec, valueSerde: SerdeSpec, parent: string, given?: string): string {
    const name = this.nodeName("sink", given);
    this.definition.nodes.set(name, { kind: "sink", name, topic, keySerde, valueSerde, predecessors: [parent] });
    this.link([parent], name);
    return name;
  }

  addStore(store: StoreDef): void {
    if (this.definition.stores.has(store.name)) throw new Error(`topology already has a store named '${store.name}'`);
    this.definition.stores.set(store.name, store);
  }

  private link(parents: string[], child: string): void {
    for (const parent of parents) {
      const node = this.definition.nodes.get(parent);
      if (!node || node.kind === "sink") throw new Error(`cannot attach '${child}' to '${parent}'`);
      node.successors.push(child);
    }
  }
}
