/**
 * Aggregations of a grouped stream into a table (Kafka Streams' KStreamAggregate, KStreamReduce and count): one
 * timestamped_key_value store (plain when asked), updated per record, its changes forwarded downstream — by the
 * store's record cache once folded, when it has one. An aggregate carries the largest timestamp of its records.
 */
import type { Materialized } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import type { GroupedStreamHandle } from "../dsl-handles";
import { keyed, statefulProcessor, type Rec } from "../processor-shapes";
import { changeForwarder, materializedView, tableStore, UNKNOWN_TIMESTAMP, type Row, type TableOperator, type TableView } from "../table-changes";
import { groupedValueSerde, type Aggregation, type Aggregator, type Fold } from "./grouping";

/**
 * What a count, a reduce or an aggregate does, windowed or not: how it starts, how it folds one more value in, and
 * the value serde of its store unless materialized.
 */
export interface Folding extends Fold {
  valueSerde: SerdeSpec;
}

export function countFolding(): Folding {
  return { initializer: () => 0, aggregator: (_key, _value, count: number) => count + 1, valueSerde: "long" };
}

/** Reduce: the first value of a key is its aggregate, kept with the grouping's value serde. */
export function reduceFolding(reducer: (aggregate: any, value: any) => any, grouping: GroupedStreamHandle): Folding {
  const none = Symbol("none");
  return {
    initializer: () => none,
    aggregator: (_key, value, aggregate) => (aggregate === none ? value : reducer(aggregate, value)),
    valueSerde: groupedValueSerde(grouping),
  };
}

/** A user's aggregate: its store's value serde is the configured default unless materialized. */
export function aggregateFolding(initializer: () => unknown, aggregator: Aggregator): Folding {
  return { initializer, aggregator, valueSerde: undefined };
}

/**
 * The table an aggregation makes (Kafka Streams' KStreamAggregate, KTableAggregate, KStreamWindowAggregate…): always
 * materialized, so it gives old values whenever asked, and, keyed by key (not windowed), is read from its store.
 */
export class AggregationTable implements TableOperator {
  forwardsOldValues = false;

  constructor(
    readonly storeName: string,
    private readonly keyedByKey = true,
  ) {}

  sendOldValues(): boolean {
    this.forwardsOldValues = true;
    return true;
  }

  view(): TableView {
    if (!this.keyedByKey) throw new Error(`the windowed table of store '${this.storeName}' cannot be read key by key: it has no joins and no table lookups`);
    return materializedView(this.storeName);
  }
}

/** An aggregate as stored: its value and timestamp (a plain store keeps none: -1). */
export type StoredAggregate = Row;

/** A plain store's aggregate, with the timestamp it does not keep. */
export function withoutTimestamp(value: unknown): StoredAggregate | undefined {
  return value === undefined ? undefined : { value, timestamp: UNKNOWN_TIMESTAMP };
}

/**
 * The timestamp of an aggregate that `timestamp`'s record updates: the largest of its records', as Kafka Streams
 * keeps it, so a table's updates never go back in time.
 */
export function aggregateTimestamp(previous: StoredAggregate | undefined, timestamp: number): number {
  return previous === undefined ? timestamp : Math.max(previous.timestamp, timestamp);
}

function aggregateProcessor(table: AggregationTable, { initializer, aggregator }: Fold): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = tableStore(context, table.storeName);
    const forward = changeForwarder(context, store, table.forwardsOldValues);
    return (record) => {
      // Kafka Streams drops (and counts) records with a null key or value: there is nothing to fold in.
      if (!keyed(context, record)) return;
      if (record.value === null || record.value === undefined) return context.recordDropped();
      const previous = store.get(record.key);
      const next = aggregator(record.key, record.value, previous === undefined ? initializer() : previous.value);
      const timestamp = aggregateTimestamp(previous, record.timestamp);
      store.put(record.key, next, timestamp);
      forward(record.withTimestamp(timestamp) as Rec, next, previous?.value);
    };
  });
}

/** An aggregation into a key_value store, timestamped unless materialized otherwise, one value per key. */
export function keyValueAggregation(materialized: Materialized<any, any> & { storeName: string }): Aggregation {
  const operator = new AggregationTable(materialized.storeName);
  const type = materialized.storeType ?? "timestamped_key_value";
  return { prefix: "aggregate", operator, store: { type, historyRetentionMs: materialized.historyRetentionMs }, processor: (fold) => aggregateProcessor(operator, fold) };
}
