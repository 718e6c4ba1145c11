/**
 * A topology ready to run for one application: the DSL definition with every serde resolved against the
 * application's defaults, split into sub-topologies, with the names of its internal topics.
 */
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { TimestampExtractor } from "../../../kernel/contracts/streams/processor";
import { resolveTimestampExtractor } from "../processor/timestamp-extractors";
import type { StoreSpec } from "../../../kernel/contracts/streams/stores";
import type { TopologyGraph } from "../../../kernel/contracts/streams/runtime";
import type { NamedCodeLookup } from "../../../kernel/contracts/streams/named-code";
import { resolveSerde, type SerdeSpec } from "../serdes/serde-resolver";
import type { RegistrySerdes } from "../serdes/registry/registry-serdes";
import { splitSubTopologies, validatePartitionCounts, type SubTopology } from "../topology/sub-topologies";
import { describeTopology } from "../topology/topology-graph";
import type { TopologyDefinition, TopologyNodeDef } from "../topology/topology-model";
import type { GlobalStoreSpec } from "../state/global-store";

export interface SerdePair {
  key: Serde<any>;
  value: Serde<any>;
}

export class CompiledTopology {
  readonly subTopologies: SubTopology[];
  private readonly serdes = new Map<string, SerdePair>();
  private readonly storeSpecs = new Map<string, StoreSpec>();
  private readonly extractors = new Map<string, TimestampExtractor>();
  private readonly topicToSubTopology = new Map<string, number>();
  private readonly storeToSubTopology = new Map<string, number>();
  /** Per sub-topology: its stores that keep a changelog. */
  private readonly loggedStores: readonly string[][];
  /** `default.key.serde` and `default.value.serde`, resolved. */
  readonly defaultSerdes: SerdePair;
  /** The serdes a name resolves to, per role: the registry serdes' (`avro`), then the registered ones. */
  private readonly named: { key?: NamedCodeLookup; value?: NamedCodeLookup };

  constructor(
    readonly applicationId: string,
    readonly definition: TopologyDefinition,
    private readonly defaultKeySerde: SerdeSpec,
    private readonly defaultValueSerde: SerdeSpec,
    /** The serdes registered by name (`sluice.streams.NamedCode`). */
    namedCode?: NamedCodeLookup,
    defaultTimestampExtractor: string = "FailOnInvalidTimestamp",
    registrySerdes?: RegistrySerdes,
  ) {
    this.subTopologies = splitSubTopologies(definition);
    validatePartitionCounts(definition, this.subTopologies);
    this.named = registrySerdes === undefined ? { key: namedCode, value: namedCode } : { key: registrySerdes.lookup("key", namedCode), value: registrySerdes.lookup("value", namedCode) };
    this.defaultSerdes = { key: resolveSerde(defaultKeySerde, undefined, "default.key.serde", this.named.key), value: resolveSerde(defaultValueSerde, undefined, "default.value.serde", this.named.value) };
    const pair = (key: SerdeSpec, value: SerdeSpec, what: string): SerdePair => ({
      key: resolveSerde(key, defaultKeySerde, `the key of ${what}`, this.named.key),
      value: resolveSerde(value, defaultValueSerde, `the value of ${what}`, this.named.value),
    });
    for (const node of definition.nodes.values()) {
      if (node.kind !== "processor") this.serdes.set(node.name, pair(node.keySerde, node.valueSerde, `node '${node.name}'`));
      if (node.kind === "source") {
        const [spec, what] = node.timestampExtractor === undefined ? [defaultTimestampExtractor, "default.timestamp.extractor"] : [node.timestampExtractor, `source '${node.name}'`];
        this.extractors.set(node.name, resolveTimestampExtractor(spec, what));
      }
    }
    for (const store of definition.stores.values()) {
      const { key, value } = pair(store.keySerde, store.valueSerde, `store '${store.name}'`);
      // A store writes without a topic: a serde whose subject comes from one (a registry serde) writes its changelog's.
      const changelog = this.changelogTopic(store.name);
      this.storeSpecs.set(store.name, { ...store, keySerde: boundToTopic(key, changelog), valueSerde: boundToTopic(value, changelog) });
    }
    for (const sub of this.subTopologies) {
      for (const topic of sub.sourceTopics) {
        if (this.topicToSubTopology.has(topic)) throw new Error(`topic '${topic}' is read by two sub-topologies`);
        this.topicToSubTopology.set(topic, sub.id);
      }
      for (const store of sub.stores) this.storeToSubTopology.set(store, sub.id);
    }
    this.loggedStores = this.subTopologies.map((sub) => sub.stores.filter((name) => this.storeSpecs.get(name)!.logging !== false));
    for (const store of definition.stores.keys()) {
      if (!this.storeToSubTopology.has(store)) throw new Error(`store '${store}' is declared but no processor uses it`);
    }
  }

  node(name: string): TopologyNodeDef {
    const node = this.definition.nodes.get(name);
    if (!node) throw new Error(`unknown node '${name}'`);
    return node;
  }

  /**
   * Names of the serdes of the records sent to an event stream (for the JSON serializer modules), each only
   * when every sender of the stream declares the same one.
   */
  eventSerdeNames(type: string): { key?: string; value?: string } {
    const senders = this.definition.eventSerdes.get(type) ?? [];
    const agreed = (specs: SerdeSpec[]) => {
      const names = new Set(specs.map((spec) => (spec === undefined ? undefined : resolveSerde(spec, undefined, `event stream '${type}'`, this.named.value).name)));
      const [only] = names;
      return names.size === 1 ? only : undefined;
    };
    return { key: agreed(senders.map((sender) => sender.keySerde)), value: agreed(senders.map((sender) => sender.valueSerde)) };
  }

  /** A serde the DSL named (undefined: the configured default for a key or a value), for processors that serialize. */
  resolveSerde(spec: SerdeSpec, role: "key" | "value", what: string): Serde<any> {
    return resolveSerde(spec, role === "key" ? this.defaultKeySerde : this.defaultValueSerde, what, this.named[role]);
  }

  /** The timestamp extractor of a source node. */
  timestampExtractorOf(sourceName: string): TimestampExtractor {
    return this.extractors.get(sourceName)!;
  }

  serdesOf(nodeName: string): SerdePair {
    return this.serdes.get(nodeName)!;
  }

  /** Whether a sink picks its topic per record, so that output topics become known as records name them. */
  hasTopicNameExtractor(): boolean {
    return [...this.definition.nodes.values()].some((node) => node.kind === "sink" && typeof node.topic !== "string");
  }

  sourceTopics(): string[] {
    return [...this.topicToSubTopology.keys()];
  }

  /** Source topics written by nobody in this topology: the application's inputs. */
  externalSourceTopics(): string[] {
    return this.sourceTopics().filter((topic) => !this.definition.repartitionTopics.has(topic));
  }

  subTopologyOfTopic(topic: string): number | undefined {
    return this.topicToSubTopology.get(topic);
  }

  subTopologyOfStore(store: string): number | undefined {
    return this.storeToSubTopology.get(store);
  }

  storeSpec(name: string): StoreSpec | undefined {
    return this.storeSpecs.get(name);
  }

  /** The global stores, their serdes resolved. */
  globalStoreSpecs(): GlobalStoreSpec[] {
    return [...this.definition.globalStores.keys()].map((name) => this.globalStoreSpec(name)!);
  }

  globalStoreSpec(name: string): GlobalStoreSpec | undefined {
    const store = this.definition.globalStores.get(name);
    if (store === undefined) return undefined;
    const { processor } = store;
    return {
      ...store,
      keySerde: this.resolveSerde(store.keySerde, "key", `the key of global store '${store.name}'`),
      valueSerde: this.resolveSerde(store.valueSerde, "value", `the value of global store '${store.name}'`),
      processor: processor && {
        ...processor,
        keySerde: this.resolveSerde(processor.keySerde, "key", `the keys processor '${processor.name}' reads from topic '${store.topic}'`),
        valueSerde: this.resolveSerde(processor.valueSerde, "value", `the values processor '${processor.name}' reads from topic '${store.topic}'`),
      },
    };
  }

  /** The names of every store, the global ones too. */
  storeNames(): string[] {
    return [...this.storeSpecs.keys(), ...this.definition.globalStores.keys()];
  }

  storeSpecsOf(subTopologyId: number): StoreSpec[] {
    return this.subTopologies[subTopologyId].stores.map((name) => this.storeSpecs.get(name)!);
  }

  /** The stores of a sub-topology that keep a changelog (all but those with logging disabled), in its order. */
  loggedStoresOf(subTopologyId: number): readonly string[] {
    return this.loggedStores[subTopologyId];
  }

  changelogTopic(store: string): string {
    return `${this.applicationId}-${store}-changelog`;
  }

  describe(version: string): TopologyGraph {
    return describeTopology(this.definition, this.subTopologies, version);
  }
}

/** `serde` writing as for `topic` when it is given none, for a serde that needs a topic to write (prepareSerialize). */
function boundToTopic<T>(serde: Serde<T>, topic: string): Serde<T> {
  const { prepareSerialize } = serde;
  if (prepareSerialize === undefined) return serde;
  return {
    name: serde.name,
    serialize: (value, to) => serde.serialize(value, to ?? topic),
    deserialize: (bytes) => serde.deserialize(bytes),
    prepareDeserialize: serde.prepareDeserialize?.bind(serde),
    prepareSerialize: (to) => prepareSerialize.call(serde, to),
  };
}

export function taskIdOf(subTopologyId: number, partition: number): string {
  return `${subTopologyId}_${partition}`;
}

export function parseTaskId(taskId: string): { subTopologyId: number; partition: number } {
  const [sub, partition] = taskId.split("_").map(Number);
  return { subTopologyId: sub, partition };
}

/** Task ids (`<sub-topology>_<partition>`) in numeric order, so that placements do not depend on string order. */
export function byTaskId(a: string, b: string): number {
  const [taskA, taskB] = [parseTaskId(a), parseTaskId(b)];
  return taskA.subTopologyId - taskB.subTopologyId || taskA.partition - taskB.partition;
}
