/**
 * The DSL's public face (Kafka Streams' StreamsBuilder, KStreamImpl, KTableImpl, KGroupedStreamImpl and the
 * windowed streams): each method hands its arguments to its operator under operators/ — which adds the nodes and
 * stores and validates — and wraps the handle it gets back in the DSL type the method returns. An operator family
 * is one file there plus a line per method here.
 */
import type {
  Branched,
  BranchedKStream,
  CogroupedKStream,
  Consumed,
  EmitStrategy,
  GlobalKTable,
  Grouped,
  JoinWindows,
  Joined,
  KGroupedStream,
  KGroupedTable,
  KStream,
  KTable,
  KeyValue,
  Materialized,
  Produced,
  Repartitioned,
  SessionMaterialized,
  SessionWindowedCogroupedKStream,
  SessionWindowedKStream,
  SessionWindows,
  SlidingWindows,
  StoreBuilder,
  StoreDeclaration,
  StreamJoined,
  StreamsBuilder,
  Suppressed,
  TimeWindowedCogroupedKStream,
  TimeWindowedKStream,
  TableJoined,
  TopicNameExtractor,
  TimeWindows,
  ValueTransformerWithKeySupplier,
  WindowMaterialized,
  Windowed,
} from "../../../kernel/contracts/streams/dsl";
import type { FixedKeyProcessorSupplier, ProcessorSupplier } from "../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../serdes/serde-resolver";
import type { GroupedStreamHandle, GroupedTableHandle, StreamHandle, TableHandle } from "./dsl-handles";
import { InternalTopologyBuilder } from "./internal-topology-builder";
import { aggregateFolding, countFolding, keyValueAggregation, reduceFolding, type Folding } from "./operators/aggregate";
import { addBranch, branch, merge, split, type Splitter } from "./operators/branch-merge";
import { toEventStream } from "./operators/event-stream";
import { addAggregation, groupBy, groupByKey, type Aggregation, type AggregationInput, type MaterializedStore } from "./operators/grouping";
import { addStateStore, process, processValues } from "./operators/process";
import { countMerger, reduceMerger, sessionWindowsAggregation, type Merger } from "./operators/session-aggregate";
import { streamSource, to } from "./operators/source-sink";
import { suppress } from "./operators/suppress";
import * as stateless from "./operators/stateless";
import { streamStreamJoin, type JoinKind } from "./operators/stream-stream-join";
import { streamTableJoin } from "./operators/stream-table-join";
import { addGlobalStore, globalTable, streamGlobalTableJoin, type GlobalTableHandle } from "./operators/global-table";
import { foreignKeyJoin } from "./operators/foreign-key-join";
import { explicitRepartition } from "./operators/repartition";
import { tableSource, toStream, toTable } from "./operators/table";
import { aggregateTableFolding, countTableFolding, reduceTableFolding, tableAggregate, tableGroupBy, type TableFolding } from "./operators/table-grouping";
import { tableTableJoin, type TableJoinKind } from "./operators/table-table-join";
import { tableFilter, tableMapValues, tableTransformValues } from "./operators/table-values";
import type { TableOperator } from "./table-changes";
import { slidingWindowsAggregation } from "./operators/sliding-aggregate";
import { timeWindowsAggregation } from "./operators/windowed-aggregate";
import { checkSessionWindows, checkWindows, emitsOnClose } from "./values/windows";
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
  globalTable<K = string, V = string>(topic: string, consumed: Consumed<K, V> = {}, materialized?: Materialized<K, V>): GlobalKTable<K, V> {
    return new DslGlobalTable<K, V>(globalTable(this.builder, topic, consumed, materialized));
  }
  addStateStore(store: StoreDeclaration | StoreBuilder): StreamsBuilder {
    addStateStore(this.builder, store);
    return this;
  }
  addGlobalStore<KIn, VIn>(store: StoreDeclaration | StoreBuilder, topic: string, consumed: Consumed<KIn, VIn>, stateUpdateSupplier: ProcessorSupplier<KIn, VIn, void, void>): StreamsBuilder {
    addGlobalStore(this.builder, store, topic, consumed, stateUpdateSupplier);
    return this;
  }
}

class DslGlobalTable<K, V> implements GlobalKTable<K, V>, GlobalTableHandle {
  readonly storeName: string;

  constructor({ storeName }: GlobalTableHandle) {
    this.storeName = storeName;
  }

  queryableStoreName(): string {
    return this.storeName;
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
  split(name?: string): BranchedKStream<K, V> {
    return new DslBranchedStream<K, V>(this.builder, split(this.builder, this, name));
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
  repartition(repartitioned: Repartitioned<K, V> = {}): KStream<K, V> {
    return this.stream(explicitRepartition(this.builder, this, repartitioned));
  }
  toTable(materialized?: Materialized<K, V>, name?: string): KTable<K, V> {
    return new DslTable<K, V>(this.builder, toTable(this.builder, this, materialized, name));
  }
  join<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT) => VR, named?: string | Joined<K, V, VT>): KStream<K, VR>;
  join<VO, VR>(other: KStream<K, VO>, joiner: (value: V, otherValue: VO, key: K) => VR, windows: JoinWindows, streamJoined?: StreamJoined<K, V, VO>): KStream<K, VR>;
  join<GK, GV, VR>(globalTable: GlobalKTable<GK, GV>, keySelector: (key: K, value: V) => GK | null, joiner: (value: V, globalValue: GV, key: K) => VR, name?: string): KStream<K, VR>;
  join(other: KTable<K, any> | KStream<K, any> | GlobalKTable<any, any>, second: (...args: any[]) => any, third?: string | Joined<K, V, any> | JoinWindows | ((...args: any[]) => any), fourth?: StreamJoined<K, V, any> | string): KStream<K, any> {
    return this.joinWith(other, second, third, fourth, { leftOuter: false, rightOuter: false });
  }
  leftJoin<VT, VR>(table: KTable<K, VT>, joiner: (value: V, tableValue: VT | null) => VR, named?: string | Joined<K, V, VT>): KStream<K, VR>;
  leftJoin<VO, VR>(other: KStream<K, VO>, joiner: (value: V, otherValue: VO | null, key: K) => VR, windows: JoinWindows, streamJoined?: StreamJoined<K, V, VO>): KStream<K, VR>;
  leftJoin<GK, GV, VR>(globalTable: GlobalKTable<GK, GV>, keySelector: (key: K, value: V) => GK | null, joiner: (value: V, globalValue: GV | null, key: K) => VR, name?: string): KStream<K, VR>;
  leftJoin(other: KTable<K, any> | KStream<K, any> | GlobalKTable<any, any>, second: (...args: any[]) => any, third?: string | Joined<K, V, any> | JoinWindows | ((...args: any[]) => any), fourth?: StreamJoined<K, V, any> | string): KStream<K, any> {
    return this.joinWith(other, second, third, fourth, { leftOuter: true, rightOuter: false });
  }
  outerJoin<VO, VR>(other: KStream<K, VO>, joiner: (value: V | null, otherValue: VO | null, key: K) => VR, windows: JoinWindows, streamJoined?: StreamJoined<K, V, VO>): KStream<K, VR> {
    return this.joinWith(other, joiner, windows, streamJoined, { leftOuter: true, rightOuter: true });
  }

  /** A stream joins a table by its key, a global table through a key selector, or another stream within join windows. */
  private joinWith(
    other: unknown,
    joiner: (...args: any[]) => any,
    third: string | Joined<K, V, any> | JoinWindows | ((...args: any[]) => any) | undefined,
    fourth: StreamJoined<K, V, any> | string | undefined,
    kind: JoinKind,
  ): KStream<K, any> {
    if (other instanceof DslGlobalTable && !kind.rightOuter) {
      if (typeof third !== "function") throw new TypeError("a stream-globalTable join takes a key selector and a joiner: join(globalTable, (key, value) => tableKey, joiner)");
      // Here the second argument is the key selector and the third the joiner.
      return this.stream(streamGlobalTableJoin(this.builder, this, other, joiner, third, kind.leftOuter, fourth as string | undefined));
    }
    if (typeof third === "function") throw new TypeError("a key selector is for a join with a GlobalKTable");
    const streamJoined = fourth as StreamJoined<K, V, any> | undefined;
    const windowed = typeof third === "object" && typeof (third as JoinWindows).size === "function";
    if (other instanceof DslStream) {
      if (!windowed) throw new TypeError("a stream-stream join needs JoinWindows (JoinWindows.ofTimeDifferenceWithNoGrace(ms), ...)");
      return this.stream(streamStreamJoin(this.builder, this, other, joiner, third as JoinWindows, streamJoined ?? {}, kind));
    }
    if (other instanceof DslTable && !kind.rightOuter) {
      if (windowed) throw new TypeError("a stream-table join takes no JoinWindows");
      const joined = typeof third === "string" ? { name: third } : ((third as Joined<K, V, any> | undefined) ?? {});
      return this.stream(streamTableJoin(this.builder, this, other, joiner, kind.leftOuter, joined));
    }
    throw new TypeError(`${kind.rightOuter ? "outerJoin" : "a join"} takes ${kind.rightOuter ? "a KStream" : "a KStream, a KTable or a GlobalKTable"} of this builder`);
  }
  process<KR, VR>(supplier: ProcessorSupplier<K, V, KR, VR>, stores: string[] = [], name?: string): KStream<KR, VR> {
    return this.stream(process(this.builder, this, supplier as ProcessorSupplier<any, any, any, any>, stores, name));
  }
  processValues<VR>(supplier: FixedKeyProcessorSupplier<K, V, VR>, stores: string[] = [], name?: string): KStream<K, VR> {
    return this.stream(processValues(this.builder, this, supplier as FixedKeyProcessorSupplier<any, any, any>, stores, name));
  }
  to(topic: string | TopicNameExtractor<K, V>, produced: Produced<K, V> = {}): void {
    to(this.builder, this, topic, produced);
  }
  toEventStream(type: string, name?: string): void {
    toEventStream(this.builder, this, type, name);
  }
}

class DslBranchedStream<K, V> implements BranchedKStream<K, V> {
  private readonly branches = new Map<string, KStream<K, V>>();

  constructor(
    private readonly builder: InternalTopologyBuilder,
    private readonly splitter: Splitter,
  ) {}

  branch(predicate: (key: K, value: V) => boolean, branched: Branched<K, V> = {}): BranchedKStream<K, V> {
    this.add(predicate, branched);
    return this;
  }
  defaultBranch(branched: Branched<K, V> = {}): Map<string, KStream<K, V>> {
    this.add(undefined, branched);
    return this.branches;
  }
  noDefaultBranch(): Map<string, KStream<K, V>> {
    return this.branches;
  }

  private add(predicate: ((key: K, value: V) => boolean) | undefined, branched: Branched<K, V>): void {
    const handle = addBranch(this.builder, this.splitter, predicate as ((key: any, value: any) => boolean) | undefined, branched.name);
    const stream = new DslStream<K, V>(this.builder, handle);
    if (branched.withFunction !== undefined) {
      const chained = branched.withFunction(stream);
      if (chained !== null && chained !== undefined) this.branches.set(handle.node, chained);
    } else if (branched.withConsumer !== undefined) branched.withConsumer(stream);
    else this.branches.set(handle.node, stream);
  }
}

class DslTable<K, V> implements KTable<K, V>, TableHandle {
  readonly node: string;
  readonly keySerde: SerdeSpec;
  readonly valueSerde: SerdeSpec;
  readonly operator: TableOperator;
  readonly windowCloseMs?: number;
  readonly versionedStore?: string;
  private readonly handle: TableHandle;

  constructor(
    private readonly builder: InternalTopologyBuilder,
    handle: TableHandle,
  ) {
    this.handle = handle;
    this.node = handle.node;
    this.keySerde = handle.keySerde;
    this.valueSerde = handle.valueSerde;
    this.operator = handle.operator;
    this.windowCloseMs = handle.windowCloseMs;
    this.versionedStore = handle.versionedStore;
  }

  get storeName(): string {
    const own = this.handle.storeName;
    if (own !== undefined) return own;
    const [derivedFrom] = this.operator.view().storeNames;
    if (derivedFrom === undefined) throw new Error(`table '${this.node}' keeps no rows of its own and derives them from no store`);
    return derivedFrom;
  }

  queryableStoreName(): string | null {
    return this.handle.storeName ?? null;
  }

  private table<KR, VR>(handle: TableHandle): KTable<KR, VR> {
    return new DslTable<KR, VR>(this.builder, handle);
  }

  filter(predicate: (key: K, value: V) => boolean, materialized?: Materialized<K, V>, name?: string): KTable<K, V> {
    return this.table(tableFilter(this.builder, this, predicate, true, materialized, name));
  }
  filterNot(predicate: (key: K, value: V) => boolean, materialized?: Materialized<K, V>, name?: string): KTable<K, V> {
    return this.table(tableFilter(this.builder, this, predicate, false, materialized, name));
  }
  mapValues<VR>(mapper: (value: V, key: K) => VR, materialized?: Materialized<K, VR>, name?: string): KTable<K, VR> {
    return this.table(tableMapValues(this.builder, this, mapper, materialized, name));
  }
  transformValues<VR>(supplier: ValueTransformerWithKeySupplier<K, V, VR>, stores: string[] = [], materialized?: Materialized<K, VR>, name?: string): KTable<K, VR> {
    return this.table(tableTransformValues(this.builder, this, supplier, stores, materialized, name));
  }
  toStream(name?: string): KStream<K, V>;
  toStream<KR>(keyMapper: (key: K, value: V) => KR, name?: string): KStream<KR, V>;
  toStream<KR>(mapperOrName?: string | ((key: K, value: V) => KR), name?: string): KStream<K | KR, V> {
    const handle =
      typeof mapperOrName === "function" ? toStream(this.builder, this, name, mapperOrName) : toStream(this.builder, this, mapperOrName);
    return new DslStream<K | KR, V>(this.builder, handle);
  }
  groupBy<KR, VR>(selector: (key: K, value: V) => KeyValue<KR, VR>, grouped: Grouped<KR, VR> = {}): KGroupedTable<KR, VR> {
    return new DslGroupedTable<KR, VR>(this.builder, tableGroupBy(this.builder, this, selector, grouped));
  }
  join(other: KTable<any, any>, second: (...args: any[]) => any, third?: unknown, fourth?: unknown, fifth?: unknown): KTable<K, any> {
    return this.anyJoin("inner", other, second, third, fourth, fifth);
  }
  leftJoin(other: KTable<any, any>, second: (...args: any[]) => any, third?: unknown, fourth?: unknown, fifth?: unknown): KTable<K, any> {
    return this.anyJoin("left", other, second, third, fourth, fifth);
  }
  outerJoin<VO, VR>(other: KTable<K, VO>, joiner: (value: V | null, otherValue: VO | null) => VR, materialized?: Materialized<K, VR>, name?: string): KTable<K, VR> {
    return this.table(tableTableJoin(this.builder, this, other as DslTable<K, VO>, joiner, "outer", materialized, name));
  }
  suppress(suppressed: Suppressed): KTable<K, V> {
    // The handle's own store name: this table's storeName stands for the store it derives its rows from, if it keeps none.
    return this.table(suppress(this.builder, this.handle, suppressed));
  }

  /** A key join `(other, joiner, materialized?, name?)`, or a foreign-key join `(other, extractor, joiner, tableJoined?, materialized?)`. */
  private anyJoin(kind: TableJoinKind, other: KTable<any, any>, second: (...args: any[]) => any, third: unknown, fourth: unknown, fifth: unknown): KTable<K, any> {
    const otherTable = other as DslTable<any, any>;
    if (typeof third === "function") {
      const joiner = third as (value: any, otherValue: any) => unknown;
      return this.table(foreignKeyJoin(this.builder, this, otherTable, second, joiner, kind === "left", (fourth ?? {}) as TableJoined, fifth as Materialized<K, any> | undefined));
    }
    return this.table(tableTableJoin(this.builder, this, otherTable, second, kind, third as Materialized<K, any> | undefined, fourth as string | undefined));
  }
}

class DslGroupedTable<K, V> implements KGroupedTable<K, V> {
  constructor(
    private readonly builder: InternalTopologyBuilder,
    private readonly handle: GroupedTableHandle,
  ) {}

  count(materialized?: Materialized<K, number>, name?: string): KTable<K, number> {
    return this.table(materialized, countTableFolding, name);
  }
  reduce(adder: (aggregate: V, value: V) => V, subtractor: (aggregate: V, value: V) => V, materialized?: Materialized<K, V>, name?: string): KTable<K, V> {
    return this.table(materialized, reduceTableFolding(adder, subtractor, this.handle), name);
  }
  aggregate<VA>(
    initializer: () => VA,
    adder: (key: K, value: V, aggregate: VA) => VA,
    subtractor: (key: K, value: V, aggregate: VA) => VA,
    materialized?: Materialized<K, VA>,
    name?: string,
  ): KTable<K, VA> {
    return this.table(materialized, aggregateTableFolding(initializer, adder, subtractor), name);
  }

  private table<VA>(materialized: Materialized<K, VA> | undefined, folding: TableFolding, name: string | undefined): KTable<K, VA> {
    return new DslTable<K, VA>(this.builder, tableAggregate(this.builder, this.handle, materialized, folding, name));
  }
}

type Input = AggregationInput;

class DslGroupedStream<K, V> implements KGroupedStream<K, V> {
  constructor(
    private readonly builder: InternalTopologyBuilder,
    readonly handle: GroupedStreamHandle,
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
  windowedBy(windows: TimeWindows | SlidingWindows): TimeWindowedKStream<K, V>;
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
  windowedBy(windows: TimeWindows | SlidingWindows | SessionWindows): TimeWindowedKStream<K, V> | SessionWindowedKStream<K, V> {
    if (windows.type === "session") return new DslSessionWindowedStream<K, V>(this.builder, this.handle, windows);
    return new DslTimeWindowedStream<K, V>(this.builder, this.handle, windows, false);
  }
  cogroup<VOut>(aggregator: (key: K, value: V, aggregate: VOut) => VOut): CogroupedKStream<K, VOut> {
    return new DslCogroupedStream<K, VOut>(this.builder, [{ grouping: this.handle, aggregator }]);
  }

  private table<VA>(materialized: Materialized<K, VA>, folding: Folding): KTable<K, VA> {
    const named = namedStore(this.builder, materialized);
    return aggregated(this.builder, [{ grouping: this.handle, aggregator: folding.aggregator }], named, keyValueAggregation(named), folding);
  }
}

/** A key-value aggregation's materialization, its store named by the builder unless named already. */
function namedStore<KT, VA>(builder: InternalTopologyBuilder, materialized: Materialized<KT, VA>): Materialized<KT, VA> & { storeName: string } {
  return { ...materialized, storeName: materialized.storeName ?? builder.storeName("aggregate") };
}

/** The table of an aggregation of `inputs` (one grouped stream, or a cogroup's). */
function aggregated<KT, VA>(
  builder: InternalTopologyBuilder,
  inputs: Input[],
  materialized: MaterializedStore,
  aggregation: Aggregation,
  { initializer, valueSerde }: Pick<Folding, "initializer" | "valueSerde">,
): KTable<KT, VA> {
  return new DslTable<KT, VA>(builder, addAggregation(builder, inputs, materialized, aggregation, initializer, valueSerde));
}

/** The aggregation over time or sliding windows, forwarding updates or each window once closed. */
function timeWindowed(windows: TimeWindows | SlidingWindows, materialized: WindowMaterialized<any, any>, emitOnClose: boolean): Aggregation {
  return windows.type === "sliding" ? slidingWindowsAggregation(windows, materialized, emitOnClose) : timeWindowsAggregation(windows, materialized, emitOnClose);
}

class DslTimeWindowedStream<K, V> implements TimeWindowedKStream<K, V> {
  constructor(
    private readonly builder: InternalTopologyBuilder,
    private readonly grouping: GroupedStreamHandle,
    private readonly windows: TimeWindows | SlidingWindows,
    private readonly emitOnClose: boolean,
  ) {
    checkWindows(windows);
  }

  emitStrategy(strategy: EmitStrategy): TimeWindowedKStream<K, V> {
    return new DslTimeWindowedStream<K, V>(this.builder, this.grouping, this.windows, emitsOnClose(strategy));
  }
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
    const aggregation = timeWindowed(this.windows, materialized, this.emitOnClose);
    return aggregated(this.builder, [{ grouping: this.grouping, aggregator: folding.aggregator }], materialized, aggregation, folding);
  }
}

class DslSessionWindowedStream<K, V> implements SessionWindowedKStream<K, V> {
  constructor(
    private readonly builder: InternalTopologyBuilder,
    private readonly grouping: GroupedStreamHandle,
    private readonly windows: SessionWindows,
    private readonly emitOnClose = false,
  ) {
    checkSessionWindows(windows);
  }

  emitStrategy(strategy: EmitStrategy): SessionWindowedKStream<K, V> {
    return new DslSessionWindowedStream<K, V>(this.builder, this.grouping, this.windows, emitsOnClose(strategy));
  }

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
    const aggregation = sessionWindowsAggregation(this.windows, materialized, merger, this.emitOnClose);
    return aggregated(this.builder, [{ grouping: this.grouping, aggregator: folding.aggregator }], materialized, aggregation, folding);
  }
}

class DslCogroupedStream<K, VOut> implements CogroupedKStream<K, VOut> {
  constructor(
    private readonly builder: InternalTopologyBuilder,
    private readonly inputs: Input[],
  ) {}

  cogroup<V>(groupedStream: KGroupedStream<K, V>, aggregator: (key: K, value: V, aggregate: VOut) => VOut): CogroupedKStream<K, VOut> {
    const grouping = (groupedStream as DslGroupedStream<K, V>).handle;
    if (this.inputs.some((input) => input.grouping === grouping)) throw new Error("cogroup: a grouped stream is cogrouped once");
    return new DslCogroupedStream<K, VOut>(this.builder, [...this.inputs, { grouping, aggregator }]);
  }
  aggregate(initializer: () => VOut, materialized: Materialized<K, VOut>): KTable<K, VOut> {
    const named = namedStore(this.builder, materialized);
    return aggregated(this.builder, this.inputs, named, keyValueAggregation(named), { initializer, valueSerde: undefined });
  }
  windowedBy(windows: TimeWindows | SlidingWindows): TimeWindowedCogroupedKStream<K, VOut>;
  windowedBy(windows: SessionWindows): SessionWindowedCogroupedKStream<K, VOut>;
  windowedBy(windows: TimeWindows | SlidingWindows | SessionWindows): TimeWindowedCogroupedKStream<K, VOut> | SessionWindowedCogroupedKStream<K, VOut> {
    const { builder, inputs } = this;
    if (windows.type === "session") {
      checkSessionWindows(windows);
      return {
        aggregate: (initializer, merger, materialized) =>
          aggregated(builder, inputs, materialized, sessionWindowsAggregation(windows, materialized, merger), { initializer, valueSerde: undefined }),
      };
    }
    checkWindows(windows);
    // Kafka Streams' cogrouped windows emit every update: they have no emit strategy.
    const windowed: TimeWindowedCogroupedKStream<K, VOut> = {
      aggregate: (initializer, materialized) => aggregated(builder, inputs, materialized, timeWindowed(windows, materialized, false), { initializer, valueSerde: undefined }),
    };
    return windowed;
  }
}
