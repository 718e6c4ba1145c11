/** The DSL implementation: each operator adds named nodes (and stores) to a TopologyDefinition. */
import type {
  Consumed,
  Grouped,
  KGroupedStream,
  KStream,
  KTable,
  KeyValue,
  Materialized,
  Produced,
  SessionMaterialized,
  SessionWindowedKStream,
  SessionWindows,
  StoreDeclaration,
  StreamsBuilder,
  TimeWindowedKStream,
  TimeWindows,
  WindowMaterialized,
  Windowed,
} from "../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../kernel/contracts/streams/processor";
import { windowedSerde } from "../serdes/windowed-serde";
import {
  aggregateProcessor,
  countAggregator,
  reduceAggregator,
  sessionAggregateProcessor,
  streamTableJoinProcessor,
  tableSourceProcessor,
  windowedAggregateProcessor,
  type Aggregator,
} from "./stateful-processors";
import {
  branchProcessor,
  eventStreamProcessor,
  filterProcessor,
  flatMapProcessor,
  flatMapValuesProcessor,
  foreachProcessor,
  mapProcessor,
  mapValuesProcessor,
  passThroughProcessor,
  peekProcessor,
  selectKeyProcessor,
} from "./stateless-processors";
import type { SerdeSpec } from "../serdes/serde-resolver";
import type { StoreDef, TopologyDefinition } from "./topology-model";

const DEFAULT_RETENTION_MS = 24 * 60 * 60 * 1000;

export class DslTopologyBuilder implements StreamsBuilder {
  readonly definition: TopologyDefinition = {
    nodes: new Map(),
    stores: new Map(),
    repartitionTopics: new Set(),
    eventTypes: new Set(),
    eventSerdes: new Map(),
  };
  private counter = 0;

  constructor(readonly applicationId: string) {}

  stream<K = string, V = string>(topics: string | string[], consumed: Consumed<K, V> = {}): KStream<K, V> {
    const topicList = Array.isArray(topics) ? topics : [topics];
    if (topicList.length === 0) throw new Error("stream() needs at least one topic");
    const name = this.addSource(topicList, consumed.keySerde, consumed.valueSerde, consumed.name);
    return new DslStream<K, V>(this, name, consumed.keySerde, consumed.valueSerde, false);
  }

  table<K = string, V = string>(topic: string, consumed: Consumed<K, V> = {}, materialized?: Materialized<K, V>): KTable<K, V> {
    const source = this.addSource([topic], consumed.keySerde, consumed.valueSerde, consumed.name);
    const storeName = materialized?.storeName ?? topic;
    const keySerde = materialized?.keySerde ?? consumed.keySerde;
    const valueSerde = materialized?.valueSerde ?? consumed.valueSerde;
    this.addStore({ name: storeName, type: "key_value", keySerde, valueSerde });
    const node = this.addProcessor("table", tableSourceProcessor(storeName), [source], [storeName]);
    return new DslTable<K, V>(this, node, storeName, keySerde, valueSerde);
  }

  addStateStore(store: StoreDeclaration): StreamsBuilder {
    this.addStore({ ...store, keySerde: store.keySerde as SerdeSpec, valueSerde: store.valueSerde as SerdeSpec });
    return this;
  }

  nodeName(prefix: string, given?: string): string {
    const name = given ?? `${prefix}-${this.counter++}`;
    if (this.definition.nodes.has(name)) throw new Error(`topology already has a node named '${name}'`);
    return name;
  }

  addSource(topics: string[], keySerde: SerdeSpec, valueSerde: SerdeSpec, given?: string): string {
    const name = this.nodeName("source", given);
    this.definition.nodes.set(name, { kind: "source", name, topics, keySerde, valueSerde, successors: [] });
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

  /** Writes the records of `parent` to a repartition topic and reads them back; returns the new source. */
  repartition(parent: string, baseName: string, keySerde: SerdeSpec, valueSerde: SerdeSpec): string {
    const topic = `${this.applicationId}-${baseName}-repartition`;
    this.definition.repartitionTopics.add(topic);
    this.addSink(topic, keySerde, valueSerde, parent, `${baseName}-repartition-sink`);
    return this.addSource([topic], keySerde, valueSerde, `${baseName}-repartition-source`);
  }

  private link(parents: string[], child: string): void {
    for (const parent of parents) {
      const node = this.definition.nodes.get(parent);
      if (!node || node.kind === "sink") throw new Error(`cannot attach '${child}' to '${parent}'`);
      node.successors.push(child);
    }
  }
}

class DslStream<K, V> implements KStream<K, V> {
  constructor(
    private readonly builder: DslTopologyBuilder,
    readonly node: string,
    readonly keySerde: SerdeSpec,
    readonly valueSerde: SerdeSpec,
    /** True once the key may have changed since the source: grouping then goes through a repartition topic. */
    readonly keyChanged: boolean,
  ) {}

  private next<KR, VR>(prefix: string, supplier: ProcessorSupplier<any, any, any, any>, name: string | undefined, serdes: {
    key?: SerdeSpec;
    value?: SerdeSpec;
    keyChanged?: boolean;
  }): DslStream<KR, VR> {
    const node = this.builder.addProcessor(prefix, supplier, [this.node], [], name);
    return new DslStream<KR, VR>(
      this.builder,
      node,
      "key" in serdes ? serdes.key : this.keySerde,
      "value" in serdes ? serdes.value : this.valueSerde,
      serdes.keyChanged ?? this.keyChanged,
    );
  }

  map<KR, VR>(mapper: (key: K, value: V) => KeyValue<KR, VR>, name?: string): KStream<KR, VR> {
    return this.next("map", mapProcessor(mapper), name, { key: undefined, value: undefined, keyChanged: true });
  }
  mapValues<VR>(mapper: (value: V, key: K) => VR, name?: string): KStream<K, VR> {
    return this.next("mapvalues", mapValuesProcessor(mapper), name, { value: undefined });
  }
  filter(predicate: (key: K, value: V) => boolean, name?: string): KStream<K, V> {
    return this.next("filter", filterProcessor(predicate, true), name, {});
  }
  filterNot(predicate: (key: K, value: V) => boolean, name?: string): KStream<K, V> {
    return this.next("filternot", filterProcessor(predicate, false), name, {});
  }
  flatMap<KR, VR>(mapper: (key: K, value: V) => Iterable<KeyValue<KR, VR>>, name?: string): KStream<KR, VR> {
    return this.next("flatmap", flatMapProcessor(mapper), name, { key: undefined, value: undefined, keyChanged: true });
  }
  flatMapValues<VR>(mapper: (value: V, key: K) => Iterable<VR>, name?: string): KStream<K, VR> {
    return this.next("flatmapvalues", flatMapValuesProcessor(mapper), name, { value: undefined });
  }
  selectKey<KR>(mapper: (key: K, value: V) => KR, name?: string): KStream<KR, V> {
    return this.next("selectkey", selectKeyProcessor(mapper), name, { key: undefined, keyChanged: true });
  }
  peek(action: (key: K, value: V) => void, name?: string): KStream<K, V> {
    return this.next("peek", peekProcessor(action), name, {});
  }
  foreach(action: (key: K, value: V) => void, name?: string): void {
    this.builder.addProcessor("foreach", foreachProcessor(action), [this.node], [], name);
  }
  branch(...predicates: ((key: K, value: V) => boolean)[]): KStream<K, V>[] {
    return predicates.map((_, index) => this.next<K, V>("branch", branchProcessor(predicates, index), undefined, {}));
  }
  merge(other: KStream<K, V>, name?: string): KStream<K, V> {
    const otherStream = other as DslStream<K, V>;
    const node = this.builder.addProcessor("merge", passThroughProcessor(), [this.node, otherStream.node], [], name);
    return new DslStream<K, V>(this.builder, node, this.keySerde, this.valueSerde, this.keyChanged || otherStream.keyChanged);
  }
  groupByKey(grouped: Grouped<K, V> = {}): KGroupedStream<K, V> {
    return new DslGroupedStream<K, V>(this.builder, this, grouped, this.keyChanged);
  }
  groupBy<KR>(selector: (key: K, value: V) => KR, grouped: Grouped<KR, V> = {}): KGroupedStream<KR, V> {
    const rekeyed = this.next<KR, V>("groupby", selectKeyProcessor(selector), undefined, { key: undefined, keyChanged: true });
    return new DslGroupedStream<KR, V>(this.builder, rekeyed, grouped, true);
  }
  join<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT) => VR, name?: string): KStream<K, VR> {
    return this.joinWith(table, joiner as (value: V, tableValue: VT | null) => VR, false, name);
  }
  leftJoin<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT | null) => VR, name?: string): KStream<K, VR> {
    return this.joinWith(table, joiner, true, name);
  }
  private joinWith<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT | null) => VR, left: boolean, name?: string): KStream<K, VR> {
    const supplier = streamTableJoinProcessor(table.storeName, joiner, left);
    const node = this.builder.addProcessor("join", supplier, [this.node], [table.storeName], name);
    return new DslStream<K, VR>(this.builder, node, this.keySerde, undefined, this.keyChanged);
  }
  process<KR, VR>(supplier: ProcessorSupplier<K, V, KR, VR>, stores: string[] = [], name?: string): KStream<KR, VR> {
    const node = this.builder.addProcessor("process", supplier as ProcessorSupplier<any, any, any, any>, [this.node], stores, name);
    return new DslStream<KR, VR>(this.builder, node, undefined, undefined, true);
  }
  to(topic: string, produced: Produced<K, V> = {}): void {
    this.builder.addSink(topic, produced.keySerde ?? this.keySerde, produced.valueSerde ?? this.valueSerde, this.node, produced.name);
  }
  toEventStream(type: string, name?: string): void {
    this.builder.definition.eventTypes.add(type);
    const senders = this.builder.definition.eventSerdes.get(type) ?? [];
    this.builder.definition.eventSerdes.set(type, [...senders, { keySerde: this.keySerde, valueSerde: this.valueSerde }]);
    this.builder.addProcessor("eventstream", eventStreamProcessor(type), [this.node], [], name);
  }
}

class DslTable<K, V> implements KTable<K, V> {
  constructor(
    private readonly builder: DslTopologyBuilder,
    private readonly node: string,
    readonly storeName: string,
    private readonly keySerde: SerdeSpec,
    private readonly valueSerde: SerdeSpec,
  ) {}

  toStream(name?: string): KStream<K, V> {
    const node = this.builder.addProcessor("tostream", passThroughProcessor(), [this.node], [], name);
    return new DslStream<K, V>(this.builder, node, this.keySerde, this.valueSerde, false);
  }
}

interface AggregationInput {
  parent: string;
  keySerde: SerdeSpec;
  valueSerde: SerdeSpec;
}

class DslGroupedStream<K, V> implements KGroupedStream<K, V> {
  constructor(
    private readonly builder: DslTopologyBuilder,
    private readonly stream: DslStream<any, V>,
    private readonly grouped: Grouped<K, V>,
    private readonly needsRepartition: boolean,
  ) {}

  /** The node an aggregation reads from: the stream itself, or a repartition topic's source. */
  input(storeName: string): AggregationInput {
    const keySerde = this.grouped.keySerde ?? this.stream.keySerde;
    const valueSerde = this.grouped.valueSerde ?? this.stream.valueSerde;
    const parent = this.needsRepartition
      ? this.builder.repartition(this.stream.node, this.grouped.name ?? storeName, keySerde, valueSerde)
      : this.stream.node;
    return { parent, keySerde, valueSerde };
  }

  count(materialized: Materialized<K, number>): KTable<K, number> {
    const { initializer, aggregator } = countAggregator();
    return this.aggregateInto(materialized, "long", initializer, aggregator);
  }
  reduce(reducer: (aggregate: V, value: V) => V, materialized: Materialized<K, V>): KTable<K, V> {
    const { initializer, aggregator } = reduceAggregator(reducer);
    return this.aggregateInto(materialized, this.grouped.valueSerde ?? this.stream.valueSerde, initializer, aggregator);
  }
  aggregate<VA>(initializer: () => VA, aggregator: (key: K, value: V, aggregate: VA) => VA, materialized: Materialized<K, VA>): KTable<K, VA> {
    return this.aggregateInto(materialized, undefined, initializer, aggregator);
  }
  windowedBy(windows: TimeWindows): TimeWindowedKStream<K, V>;
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
  windowedBy(windows: TimeWindows | SessionWindows): TimeWindowedKStream<K, V> | SessionWindowedKStream<K, V> {
    if (windows.type === "session") return new DslSessionWindowedStream<K, V>(this.builder, this, windows);
    return new DslTimeWindowedStream<K, V>(this.builder, this, windows);
  }

  valueSerde(): SerdeSpec {
    return this.grouped.valueSerde ?? this.stream.valueSerde;
  }

  private aggregateInto<VA>(materialized: Materialized<K, VA>, defaultValueSerde: SerdeSpec, initializer: () => unknown, aggregator: Aggregator): KTable<K, VA> {
    const input = this.input(materialized.storeName);
    const type = materialized.storeType ?? "key_value";
    const keySerde = materialized.keySerde ?? input.keySerde;
    const valueSerde = materialized.valueSerde ?? defaultValueSerde;
    this.builder.addStore({ name: materialized.storeName, type, keySerde, valueSerde });
    const supplier = aggregateProcessor(materialized.storeName, type === "timestamped_key_value", initializer, aggregator);
    const node = this.builder.addProcessor("aggregate", supplier, [input.parent], [materialized.storeName]);
    return new DslTable<K, VA>(this.builder, node, materialized.storeName, keySerde, valueSerde);
  }
}

class DslTimeWindowedStream<K, V> implements TimeWindowedKStream<K, V> {
  constructor(
    private readonly builder: DslTopologyBuilder,
    private readonly grouped: DslGroupedStream<K, V>,
    private readonly windows: TimeWindows,
  ) {}

  count(materialized: WindowMaterialized<K, number>): KTable<Windowed<K>, number> {
    const { initializer, aggregator } = countAggregator();
    return this.aggregateInto(materialized, "long", initializer, aggregator);
  }
  reduce(reducer: (aggregate: V, value: V) => V, materialized: WindowMaterialized<K, V>): KTable<Windowed<K>, V> {
    const { initializer, aggregator } = reduceAggregator(reducer);
    return this.aggregateInto(materialized, this.grouped.valueSerde(), initializer, aggregator);
  }
  aggregate<VA>(initializer: () => VA, aggregator: (key: K, value: V, aggregate: VA) => VA, materialized: WindowMaterialized<K, VA>): KTable<Windowed<K>, VA> {
    return this.aggregateInto(materialized, undefined, initializer, aggregator);
  }

  private aggregateInto<VA>(materialized: WindowMaterialized<K, VA>, defaultValueSerde: SerdeSpec, initializer: () => unknown, aggregator: Aggregator): KTable<Windowed<K>, VA> {
    const input = this.grouped.input(materialized.storeName);
    const type = materialized.storeType ?? "window";
    const keySerde = materialized.keySerde ?? input.keySerde;
    const valueSerde = materialized.valueSerde ?? defaultValueSerde;
    const minimumRetention = this.windows.sizeMs + (this.windows.graceMs ?? 0);
    const retentionMs = Math.max(materialized.retentionMs ?? DEFAULT_RETENTION_MS, minimumRetention);
    this.builder.addStore({ name: materialized.storeName, type, keySerde, valueSerde, windowSizeMs: this.windows.sizeMs, retentionMs });
    const supplier = windowedAggregateProcessor(materialized.storeName, type === "timestamped_window", this.windows, initializer, aggregator);
    const node = this.builder.addProcessor("windowed-aggregate", supplier, [input.parent], [materialized.storeName]);
    return new DslTable<Windowed<K>, VA>(this.builder, node, materialized.storeName, { wrap: windowedSerde, inner: keySerde }, valueSerde);
  }
}

class DslSessionWindowedStream<K, V> implements SessionWindowedKStream<K, V> {
  constructor(
    private readonly builder: DslTopologyBuilder,
    private readonly grouped: DslGroupedStream<K, V>,
    private readonly windows: SessionWindows,
  ) {}

  count(materialized: SessionMaterialized<K, number>): KTable<Windowed<K>, number> {
    const { initializer, aggregator } = countAggregator();
    return this.aggregateInto(materialized, "long", initializer, aggregator, (_key, left: number, right: number) => left + right);
  }
  reduce(reducer: (aggregate: V, value: V) => V, materialized: SessionMaterialized<K, V>): KTable<Windowed<K>, V> {
    const { initializer, aggregator } = reduceAggregator(reducer);
    const merger = (key: unknown, left: unknown, right: unknown) => aggregator(key, right, left);
    return this.aggregateInto(materialized, this.grouped.valueSerde(), initializer, aggregator, merger);
  }
  aggregate<VA>(
    initializer: () => VA,
    aggregator: (key: K, value: V, aggregate: VA) => VA,
    merger: (key: K, left: VA, right: VA) => VA,
    materialized: SessionMaterialized<K, VA>,
  ): KTable<Windowed<K>, VA> {
    return this.aggregateInto(materialized, undefined, initializer, aggregator, merger);
  }

  private aggregateInto<VA>(
    materialized: SessionMaterialized<K, VA>,
    defaultValueSerde: SerdeSpec,
    initializer: () => unknown,
    aggregator: Aggregator,
    merger: (key: any, left: any, right: any) => any,
  ): KTable<Windowed<K>, VA> {
    const input = this.grouped.input(materialized.storeName);
    const keySerde = materialized.keySerde ?? input.keySerde;
    const valueSerde = materialized.valueSerde ?? defaultValueSerde;
    const graceMs = this.windows.graceMs ?? 0;
    const retentionMs = Math.max(materialized.retentionMs ?? DEFAULT_RETENTION_MS, this.windows.gapMs + graceMs);
    this.builder.addStore({ name: materialized.storeName, type: "session", keySerde, valueSerde, retentionMs });
    const supplier = sessionAggregateProcessor(materialized.storeName, this.windows.gapMs, graceMs, initializer, aggregator, merger);
    const node = this.builder.addProcessor("session-aggregate", supplier, [input.parent], [materialized.storeName]);
    return new DslTable<Windowed<K>, VA>(this.builder, node, materialized.storeName, { wrap: windowedSerde, inner: keySerde }, valueSerde);
  }
}
