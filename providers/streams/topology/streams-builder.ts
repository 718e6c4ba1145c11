/**
 * The DSL's public face (Kafka Streams' StreamsBuilder, KStreamImpl, KTableImpl, KGroupedStreamImpl and the
 * windowed streams): each method hands its arguments to its operator under operators/ — which adds the nodes and
 * stores and validates — and wraps the handle it gets back in the DSL type the method returns. An operator family
 * is one file there plus a line per method here.
 */
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
  StoreBuilder, StoreDeclaration,
  StreamsBuilder,
  TimeWindowedKStream,
  TimeWindows,
  WindowMaterialized,
  Windowed,
} from "../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../serdes/serde-resolver";
import type { GroupedStreamHandle, StreamHandle, TableHandle } from "./dsl-handles";
import { InternalTopologyBuilder } from "./internal-topology-builder";
import { aggregate, aggregateFolding, countFolding, reduceFolding, type Folding } from "./operators/aggregate";
import { branch, merge } from "./operators/branch-merge";
import { toEventStream } from "./operators/event-stream";
import { groupBy, groupByKey } from "./operators/grouping";
import { addStateStore, process } from "./operators/process";
import { countMerger, reduceMerger, sessionAggregate, type Merger } from "./operators/session-aggregate";
import { streamSource, to } from "./operators/source-sink";
import * as stateless from "./operators/stateless";
import { streamTableJoin } from "./operators/stream-table-join";
import { tableSource, toStream } from "./operators/table";
import { windowedAggregate } from "./operators/windowed-aggregate";
import type { TopologyDefinition } from "./topology-model";

export class DslTopologyBuilder implements StreamsBuilder {
  private readonly builder: InternalTopologyBuilder;

  constructor(applicationId: string) {
    this.builder = new InternalTopologyBuilder(applicationId);
  }

  get definition(): TopologyDefinition {
    return this.builder.definition;
  }

  stream<K = string, V = string>(topics: string | string[], consumed: Consumed<K, V> = {}): KStream<K, V> {
    return new DslStream<K, V>(this.builder, streamSource(this.builder, topics, consumed));
  }
  table<K = string, V = string>(topic: string, consumed: Consumed<K, V> = {}, materialized?: Materialized<K, V>): KTable<K, V> {
    return new DslTable<K, V>(this.builder, tableSource(this.builder, topic, consumed, materialized));
  }
  addStateStore(store: StoreDeclaration | StoreBuilder): StreamsBuilder {
    addStateStore(this.builder, store);
    return this;
  }
}

class DslStream<K, V> implements KStream<K, V>, StreamHandle {
  readonly node: string;
  readonly keySerde: SerdeSpec;
  readonly valueSerde: SerdeSpec;
  readonly keyChanged: boolean;

  constructor(
    private readonly builder: InternalTopologyBuilder,
    { node, keySerde, valueSerde, keyChanged }: StreamHandle,
  ) {
    this.node = node;
    this.keySerde = keySerde;
    this.valueSerde = valueSerde;
    this.keyChanged = keyChanged;
  }

  private stream<KR, VR>(handle: StreamHandle): KStream<KR, VR> {
    return new DslStream<KR, VR>(this.builder, handle);
  }

  map<KR, VR>(mapper: (key: K, value: V) => KeyValue<KR, VR>, name?: string): KStream<KR, VR> {
    return this.stream(stateless.map(this.builder, this, mapper, name));
  }
  mapValues<VR>(mapper: (value: V, key: K) => VR, name?: string): KStream<K, VR> {
    return this.stream(stateless.mapValues(this.builder, this, mapper, name));
  }
  filter(predicate: (key: K, value: V) => boolean, name?: string): KStream<K, V> {
    return this.stream(stateless.filter(this.builder, this, predicate, name));
  }
  filterNot(predicate: (key: K, value: V) => boolean, name?: string): KStream<K, V> {
    return this.stream(stateless.filterNot(this.builder, this, predicate, name));
  }
  flatMap<KR, VR>(mapper: (key: K, value: V) => Iterable<KeyValue<KR, VR>>, name?: string): KStream<KR, VR> {
    return this.stream(stateless.flatMap(this.builder, this, mapper, name));
  }
  flatMapValues<VR>(mapper: (value: V, key: K) => Iterable<VR>, name?: string): KStream<K, VR> {
    return this.stream(stateless.flatMapValues(this.builder, this, mapper, name));
  }
  selectKey<KR>(mapper: (key: K, value: V) => KR, name?: string): KStream<KR, V> {
    return this.stream(stateless.selectKey(this.builder, this, mapper, name));
  }
  peek(action: (key: K, value: V) => void, name?: string): KStream<K, V> {
    return this.stream(stateless.peek(this.builder, this, action, name));
  }
  foreach(action: (key: K, value: V) => void, name?: string): void {
    stateless.foreach(this.builder, this, action, name);
  }
  branch(...predicates: ((key: K, value: V) => boolean)[]): KStream<K, V>[] {
    return branch(this.builder, this, predicates).map((handle) => this.stream<K, V>(handle));
  }
  merge(other: KStream<K, V>, name?: string): KStream<K, V> {
    return this.stream(merge(this.builder, this, other as DslStream<K, V>, name));
  }
  groupByKey(grouped: Grouped<K, V> = {}): KGroupedStream<K, V> {
    return new DslGroupedStream<K, V>(this.builder, groupByKey(this, grouped));
  }
  groupBy<KR>(selector: (key: K, value: V) => KR, grouped: Grouped<KR, V> = {}): KGroupedStream<KR, V> {
    return new DslGroupedStream<KR, V>(this.builder, groupBy(this.builder, this, selector, grouped));
  }
  join<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT) => VR, name?: string): KStream<K, VR> {
    return this.stream(streamTableJoin(this.builder, this, table as DslTable<K, VT>, joiner, false, name));
  }
  leftJoin<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT | null) => VR, name?: string): KStream<K, VR> {
    return this.stream(streamTableJoin(this.builder, this, table as DslTable<K, VT>, joiner, true, name));
  }
  process<KR, VR>(supplier: ProcessorSupplier<K, V, KR, VR>, stores: string[] = [], name?: string): KStream<KR, VR> {
    return this.stream(process(this.builder, this, supplier as ProcessorSupplier<any, any, any, any>, stores, name));
  }
  to(topic: string, produced: Produced<K, V> = {}): void {
    to(this.builder, this, topic, produced);
  }
  toEventStream(type: string, name?: string): void {
    toEventStream(this.builder, this, type, name);
  }
}

class DslTable<K, V> implements KTable<K, V>, TableHandle {
  readonly node: string;
  readonly storeName: string;
  readonly keySerde: SerdeSpec;
  readonly valueSerde: SerdeSpec;

  constructor(
    private readonly builder: InternalTopologyBuilder,
    { node, storeName, keySerde, valueSerde }: TableHandle,
  ) {
    this.node = node;
    this.storeName = storeName;
    this.keySerde = keySerde;
    this.valueSerde = valueSerde;
  }

  toStream(name?: string): KStream<K, V> {
    return new DslStream<K, V>(this.builder, toStream(this.builder, this, name));
  }
}

class DslGroupedStream<K, V> implements KGroupedStream<K, V> {
  constructor(
    private readonly builder: InternalTopologyBuilder,
    private readonly handle: GroupedStreamHandle,
  ) {}

  count(materialized: Materialized<K, number>): KTable<K, number> {
    return this.table(materialized, countFolding());
  }
  reduce(reducer: (aggregate: V, value: V) => V, materialized: Materialized<K, V>): KTable<K, V> {
    return this.table(materialized, reduceFolding(reducer, this.handle));
  }
  aggregate<VA>(initializer: () => VA, aggregator: (key: K, value: V, aggregate: VA) => VA, materialized: Materialized<K, VA>): KTable<K, VA> {
    return this.table(materialized, aggregateFolding(initializer, aggregator));
  }
  windowedBy(windows: TimeWindows): TimeWindowedKStream<K, V>;
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
  windowedBy(windows: TimeWindows | SessionWindows): TimeWindowedKStream<K, V> | SessionWindowedKStream<K, V> {
    if (windows.type === "session") return new DslSessionWindowedStream<K, V>(this.builder, this.handle, windows);
    return new DslTimeWindowedStream<K, V>(this.builder, this.handle, windows);
  }

  private table<VA>(materialized: Materialized<K, VA>, folding: Folding): KTable<K, VA> {
    return new DslTable<K, VA>(this.builder, aggregate(this.builder, this.handle, materialized, folding));
  }
}

class DslTimeWindowedStream<K, V> implements TimeWindowedKStream<K, V> {
  constructor(
    private readonly builder: InternalTopologyBuilder,
    private readonly grouping: GroupedStreamHandle,
    private readonly windows: TimeWindows,
  ) {}

  count(materialized: WindowMaterialized<K, number>): KTable<Windowed<K>, number> {
    return this.table(materialized, countFolding());
  }
  reduce(reducer: (aggregate: V, value: V) => V, materialized: WindowMaterialized<K, V>): KTable<Windowed<K>, V> {
    return this.table(materialized, reduceFolding(reducer, this.grouping));
  }
  aggregate<VA>(initializer: () => VA, aggregator: (key: K, value: V, aggregate: VA) => VA, materialized: WindowMaterialized<K, VA>): KTable<Windowed<K>, VA> {
    return this.table(materialized, aggregateFolding(initializer, aggregator));
  }

  private table<VA>(materialized: WindowMaterialized<K, VA>, folding: Folding): KTable<Windowed<K>, VA> {
    return new DslTable<Windowed<K>, VA>(this.builder, windowedAggregate(this.builder, this.grouping, this.windows, materialized, folding));
  }
}

class DslSessionWindowedStream<K, V> implements SessionWindowedKStream<K, V> {
  constructor(
    private readonly builder: InternalTopologyBuilder,
    private readonly grouping: GroupedStreamHandle,
    private readonly windows: SessionWindows,
  ) {}

  count(materialized: SessionMaterialized<K, number>): KTable<Windowed<K>, number> {
    return this.table(materialized, countFolding(), countMerger);
  }
  reduce(reducer: (aggregate: V, value: V) => V, materialized: SessionMaterialized<K, V>): KTable<Windowed<K>, V> {
    const folding = reduceFolding(reducer, this.grouping);
    return this.table(materialized, folding, reduceMerger(folding));
  }
  aggregate<VA>(
    initializer: () => VA,
    aggregator: (key: K, value: V, aggregate: VA) => VA,
    merger: (key: K, left: VA, right: VA) => VA,
    materialized: SessionMaterialized<K, VA>,
  ): KTable<Windowed<K>, VA> {
    return this.table(materialized, aggregateFolding(initializer, aggregator), merger);
  }

  private table<VA>(materialized: SessionMaterialized<K, VA>, folding: Folding, merger: Merger): KTable<Windowed<K>, VA> {
    return new DslTable<Windowed<K>, VA>(this.builder, sessionAggregate(this.builder, this.grouping, this.windows, materialized, folding, merger));
  }
}
