/**
 * The graph the DSL's operators add to (Kafka Streams' InternalTopologyBuilder): named source, processor and sink
 * nodes, their edges and their stores, in a TopologyDefinition. It checks what holds for every operator — unique
 * node and store names, a topic read by one source only, known stores, edges only out of sources and processors;
 * each operator checks its own.
 */
import type { StreamPartitioner, TopicNameExtractor } from "../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier, TimestampExtractor } from "../../../kernel/contracts/streams/processor";
import type { BytesStoreSupplier } from "../../../kernel/contracts/streams/stores";
import { suppliedKind } from "../state/supplied-kinds";
import type { SerdeSpec } from "../serdes/serde-resolver";
import type { GlobalStoreDef, StoreDef, TopologyDefinition } from "./topology-model";

export class InternalTopologyBuilder {
  readonly definition: TopologyDefinition = {
    nodes: new Map(),
    stores: new Map(),
    globalStores: new Map(),
    repartitionTopics: new Set(),
    repartitionPartitions: new Map(),
    eventTypes: new Set(),
    eventSerdes: new Map(),
  };
  private counter = 0;
  /** Sources of StreamsBuilder.stream: another stream of the same topics shares them. */
  private readonly streamSources = new Set<string>();

  constructor(readonly applicationId: string) {}

  /** A generated name for a store the user did not name. */
  storeName(prefix: string): string {
    return `${prefix}-store-${this.counter++}`;
  }

  nodeName(prefix: string, given?: string): string {
    const name = given ?? `${prefix}-${this.counter++}`;
    if (this.definition.nodes.has(name)) throw new Error(`topology already has a node named '${name}'`);
    return name;
  }

  /**
   * Adds a source reading `topics`; returns its name. As in Kafka Streams, a topic is read by one source: a stream
   * source reading exactly the topics of an earlier stream source, with its serdes and timestamp extractor, is that
   * source (both streams get every record), and any other overlap is an error naming both.
   * `timestampExtractor`: none, `default.timestamp.extractor`.
   */
  addSource(
    topics: string[],
    keySerde: SerdeSpec,
    valueSerde: SerdeSpec,
    given?: string,
    timestampExtractor?: TimestampExtractor | string,
    kind: "stream" | "other" = "other",
  ): string {
    const global = [...this.definition.globalStores.values()].find((store) => topics.includes(store.topic));
    if (global !== undefined) throw new Error(`topic '${global.topic}' is the topic of global store '${global.name}': a topic is read by one source only`);
    for (const node of this.definition.nodes.values()) {
      if (node.kind !== "source") continue;
      const overlap = topics.find((topic) => node.topics.includes(topic));
      if (overlap === undefined) continue;
      const sameStream = kind === "stream" && this.streamSources.has(node.name) && topics.length === node.topics.length && topics.every((topic) => node.topics.includes(topic));
      const sameSerdes = node.keySerde === keySerde && node.valueSerde === valueSerde;
      if (sameStream && sameSerdes && node.timestampExtractor === timestampExtractor) return node.name;
      const why = !sameStream ? "" : sameSerdes ? " with another timestamp extractor" : " with other serdes";
      const which = given === undefined ? "a source" : `source '${given}'`;
      throw new Error(`${which} reads topic '${overlap}'${why}, which source '${node.name}' already reads: a topic is subscribed once (streams of exactly the same topics and serdes share one source)`);
    }
    const name = this.nodeName("source", given);
    if (kind === "stream") this.streamSources.add(name);
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

  addSink(
    topic: string | TopicNameExtractor<any, any>,
    keySerde: SerdeSpec,
    valueSerde: SerdeSpec,
    parents: string | string[],
    given?: string,
    partitioner?: StreamPartitioner<any, any>,
  ): string {
    const name = this.nodeName("sink", given);
    const predecessors = typeof parents === "string" ? [parents] : parents;
    this.definition.nodes.set(name, { kind: "sink", name, topic, keySerde, valueSerde, partitioner, predecessors });
    this.link(predecessors, name);
    return name;
  }

  /** Connects a processor to more stores (the stores a table it reads keeps its rows in). */
  connectStores(processor: string, stores: readonly string[]): void {
    const node = this.definition.nodes.get(processor);
    if (node?.kind !== "processor") throw new Error(`cannot connect stores to '${processor}': no such processor`);
    for (const store of stores) {
      if (!this.definition.stores.has(store)) throw new Error(`processor '${processor}' uses unknown store '${store}'`);
      if (!node.stores.includes(store)) node.stores.push(store);
    }
  }

  addStore(store: StoreDef): void {
    if (this.definition.stores.has(store.name) || this.definition.globalStores.has(store.name)) throw new Error(`topology already has a store named '${store.name}'`);
    this.definition.stores.set(store.name, store.bytesStoreSupplier === undefined ? store : suppliedStore(store, store.bytesStoreSupplier));
  }

  /** A global store and its topic, which no other source may read, as in Kafka Streams. */
  addGlobalStore(store: GlobalStoreDef): void {
    if (this.definition.stores.has(store.name) || this.definition.globalStores.has(store.name)) throw new Error(`topology already has a store named '${store.name}'`);
    const reader = [...this.definition.nodes.values()].find((node) => node.kind === "source" && node.topics.includes(store.topic));
    const global = [...this.definition.globalStores.values()].find((other) => other.topic === store.topic);
    if (reader !== undefined || global !== undefined) {
      throw new Error(`global store '${store.name}' reads topic '${store.topic}', which ${reader !== undefined ? `source '${reader.name}'` : `global store '${global!.name}'`} already reads: a topic is read by one source only`);
    }
    this.definition.globalStores.set(store.name, store);
  }

  private link(parents: string[], child: string): void {
    for (const parent of parents) {
      const node = this.definition.nodes.get(parent);
      if (!node || node.kind === "sink") throw new Error(`cannot attach '${child}' to '${parent}'`);
      node.successors.push(child);
    }
  }
}

/**
 * A store in a user's supplier, of the supplier's name and kind, kept as an in-memory one (its writes are not part of
 * the task's LevelDB commit, so it is restored from its changelog at each task opening). A window or session store
 * takes its window size, retention and duplicates from the supplier, as Kafka Streams' stores do: Kafka Streams checks
 * none of them against the windows of an aggregation.
 */
function suppliedStore(store: StoreDef, supplier: BytesStoreSupplier): StoreDef {
  const kind = suppliedKind(supplier);
  if (supplier.name !== store.name) throw new Error(`store '${store.name}' is given a ${kind.supplierName} named '${supplier.name}': they must be the same`);
  if (!kind.types.includes(store.type)) throw new Error(`store '${store.name}': a ${kind.supplierName} makes a ${kind.what} store, not a ${store.type} one`);
  return { ...store, ...kind.extent(supplier), inMemory: true };
}
