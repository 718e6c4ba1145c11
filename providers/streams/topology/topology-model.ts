/** The compiled-from-DSL shape of a topology: named nodes, their edges, their stores. */
import type { StreamPartitioner, TopicNameExtractor } from "../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier, TimestampExtractor } from "../../../kernel/contracts/streams/processor";
import type { BytesStoreSupplier, StoreType } from "../../../kernel/contracts/streams/stores";
import type { SerdeSpec } from "../serdes/serde-resolver";

export interface SourceNode {
  kind: "source";
  name: string;
  topics: string[];
  keySerde: SerdeSpec;
  valueSerde: SerdeSpec;
  successors: string[];
  /** Consumed.withTimestampExtractor: an extractor or its name; none, the configured default. */
  timestampExtractor?: TimestampExtractor | string;
}

export interface ProcessorNode {
  kind: "processor";
  name: string;
  supplier: ProcessorSupplier<any, any, any, any>;
  stores: string[];
  predecessors: string[];
  successors: string[];
}

export interface SinkNode {
  kind: "sink";
  name: string;
  /** One topic, or the extractor that names each record's. */
  topic: string | TopicNameExtractor<any, any>;
  keySerde: SerdeSpec;
  valueSerde: SerdeSpec;
  /** Picks each record's partitions; by default the producer's partitioner does. */
  partitioner?: StreamPartitioner<any, any>;
  predecessors: string[];
}

export type TopologyNodeDef = SourceNode | ProcessorNode | SinkNode;

export interface StoreDef {
  name: string;
  type: StoreType;
  keySerde: SerdeSpec;
  valueSerde: SerdeSpec;
  windowSizeMs?: number;
  retentionMs?: number;
  /** Processors range over it (see StoreSpec.rangeable). */
  rangeable?: boolean;
  /** False keeps the store out of the record cache. */
  caching?: boolean;
  /** Restored from its changelog whenever its task is opened (Kafka Streams' in-memory stores). */
  inMemory?: boolean;
  /** Window stores: see StoreSpec.retainDuplicates. */
  retainDuplicates?: boolean;
  /** Versioned stores: see StoreSpec.historyRetentionMs. */
  historyRetentionMs?: number;
  /** See StoreSpec.changelogConfigs. */
  changelogConfigs?: Readonly<Record<string, string>>;
  /** See StoreSpec.logging. */
  logging?: boolean;
  /** See StoreSpec.bytesStoreSupplier. */
  bytesStoreSupplier?: BytesStoreSupplier;
}

/**
 * A global store (Kafka Streams' global state store: a GlobalKTable's, or one added with addGlobalStore): every
 * partition of `topic` kept whole on each instance, outside the tasks. The topic is its changelog. Its processors
 * read it by name.
 */
export interface GlobalStoreDef {
  name: string;
  topic: string;
  type: "key_value" | "timestamped_key_value";
  keySerde: SerdeSpec;
  valueSerde: SerdeSpec;
  /** addGlobalStore's processor, which writes the store, and the serdes it reads the topic with (its Consumed). */
  processor?: { name: string; supplier: ProcessorSupplier<any, any, void, void>; keySerde: SerdeSpec; valueSerde: SerdeSpec };
}

export interface TopologyDefinition {
  /** In creation order. */
  nodes: Map<string, TopologyNodeDef>;
  stores: Map<string, StoreDef>;
  /** By store name; not part of any sub-topology. */
  globalStores: Map<string, GlobalStoreDef>;
  /** Full topic names of the repartition topics the topology writes and reads. */
  repartitionTopics: Set<string>;
  /** The partitions of the repartition topics whose number the topology fixes (KStream.repartition). */
  repartitionPartitions: Map<string, number>;
  eventTypes: Set<string>;
  /** The serdes of the records each event stream is sent, as the DSL knows them (undefined: unknown, e.g. after a map). */
  eventSerdes: Map<string, { keySerde: SerdeSpec; valueSerde: SerdeSpec }[]>;
}

export function predecessorsOf(node: TopologyNodeDef): string[] {
  return node.kind === "source" ? [] : node.predecessors;
}

export function successorsOf(node: TopologyNodeDef): string[] {
  return node.kind === "sink" ? [] : node.successors;
}
