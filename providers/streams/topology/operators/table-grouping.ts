/**
 * Re-grouping a table and aggregating it (Kafka Streams' KTableImpl.groupBy with KTableRepartitionMap, and
 * KGroupedTableImpl with KTableAggregate / KTableReduce): each change of a row becomes the subtraction of its old
 * (key, value) from its old group and the addition of its new one to its new group. Both travel through a repartition
 * topic in Kafka Streams 4.x's change format: one record holding old and new when the group stays the same — the
 * subtraction then comes first, in one step — otherwise one record for each group, the old group's first.
 */
import type { Grouped, KeyValue, Materialized } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import { changeSerde } from "../../serdes/change-serde";
import { versionedIfSo, type GroupedTableHandle, type TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { recordProcessor, statefulProcessor, type Rec } from "../processor-shapes";
import { change, changeForwarder, tableStore, type Change } from "../table-changes";
import { AggregationTable, aggregateTimestamp } from "./aggregate";
import { materializedTableStore, repartition } from "./grouping";

type Selector = (key: any, value: any) => KeyValue<any, any>;

/** Whether two selected keys are one group: equal, or, for objects, equal as JSON (Java's equals, for records). */
function sameGroup(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  return typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b);
}

function selected(selector: Selector, key: unknown, value: unknown): KeyValue<unknown, unknown> | undefined {
  if (value === null) return undefined;
  const pair = selector(key, value);
  return pair.key === null || pair.key === undefined || pair.value === null || pair.value === undefined ? undefined : pair;
}

const selectProcessor = (selector: Selector) =>
  recordProcessor((record, context) => {
    if (record.key === null || record.key === undefined) throw new Error("a table row to group has a null key");
    const { newValue, oldValue } = record.value as Change;
    const added = selected(selector, record.key, newValue);
    const subtracted = selected(selector, record.key, oldValue);
    if (added !== undefined && subtracted !== undefined && sameGroup(added.key, subtracted.key)) {
      context.forward(record.withKeyValue(subtracted.key, change(added.value, subtracted.value)));
      return;
    }
    if (subtracted !== undefined) context.forward(record.withKeyValue(subtracted.key, change(null, subtracted.value)));
    if (added !== undefined) context.forward(record.withKeyValue(added.key, change(added.value, null)));
  });

/** The table sends old values from now on: a row's change must say what to subtract. */
export function tableGroupBy(builder: InternalTopologyBuilder, parent: TableHandle, selector: Selector, grouped: Grouped<any, any>): GroupedTableHandle {
  parent.operator.sendOldValues(true);
  const node = builder.addProcessor("ktable-select", selectProcessor(selector), [parent.node], [], grouped.name);
  return { node, grouped, keySerde: grouped.keySerde, valueSerde: grouped.valueSerde };
}

/** How a count, a reduce or an aggregate of a grouped table adds a value to its group's aggregate and subtracts one. */
export interface TableFolding {
  /** `aggregate` undefined: the group has none yet. */
  add(key: unknown, value: unknown, aggregate: unknown): unknown;
  subtract(key: unknown, value: unknown, aggregate: unknown): unknown;
  /** The store's value serde unless materialized (undefined: the configured default). */
  valueSerde: SerdeSpec;
}

export const countTableFolding: TableFolding = {
  add: (_key, _value, count) => ((count as number | undefined) ?? 0) + 1,
  subtract: (_key, _value, count) => (count as number) - 1,
  valueSerde: "long",
};

export function reduceTableFolding(adder: (aggregate: any, value: any) => any, subtractor: (aggregate: any, value: any) => any, grouping: GroupedTableHandle): TableFolding {
  return {
    add: (_key, value, aggregate) => (aggregate === undefined ? value : adder(aggregate, value)),
    subtract: (_key, value, aggregate) => subtractor(aggregate, value),
    valueSerde: grouping.valueSerde,
  };
}

export function aggregateTableFolding(
  initializer: () => unknown,
  adder: (key: any, value: any, aggregate: any) => unknown,
  subtractor: (key: any, value: any, aggregate: any) => unknown,
): TableFolding {
  return {
    add: (key, value, aggregate) => adder(key, value, aggregate === undefined ? initializer() : aggregate),
    subtract: (key, value, aggregate) => subtractor(key, value, aggregate),
    valueSerde: undefined,
  };
}

/** The aggregate's timestamp is the largest of the records that made it, as in Kafka Streams. */
function tableAggregateProcessor(table: AggregationTable, folding: TableFolding): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = tableStore(context, table.storeName);
    const forward = changeForwarder(context, store, table.forwardsOldValues);
    return (record) => {
      if (record.key === null || record.key === undefined) throw new Error(`a grouped table change for store '${table.storeName}' has a null key`);
      const { newValue, oldValue } = record.value as Change;
      const previous = store.get(record.key);
      const oldAggregate = previous?.value ?? undefined;
      const subtracted = oldValue !== null && oldAggregate !== undefined ? folding.subtract(record.key, oldValue, oldAggregate) : oldAggregate;
      const aggregate = newValue !== null ? folding.add(record.key, newValue, subtracted ?? undefined) : subtracted;
      const timestamp = aggregateTimestamp(previous, record.timestamp);
      store.put(record.key, aggregate ?? null, timestamp);
      forward(record.withTimestamp(timestamp) as Rec, aggregate, oldAggregate);
    };
  });
}

/**
 * Adds the repartition topic (named after the grouping, or the first aggregation's store; every aggregation of the
 * grouping reads it), the store and the aggregation's processor.
 */
export function tableAggregate(
  builder: InternalTopologyBuilder,
  grouping: GroupedTableHandle,
  materialized: Materialized<any, any> | undefined,
  folding: TableFolding,
  name: string | undefined,
): TableHandle {
  const table = new AggregationTable(materialized?.storeName ?? builder.storeName("ktable-aggregate"));
  const keySerde = materialized?.keySerde ?? grouping.keySerde;
  const valueSerde = materialized?.valueSerde ?? folding.valueSerde;
  const changes = { wrap: changeSerde, inner: grouping.valueSerde };
  grouping.repartitionSource ??= repartition(builder, grouping.node, grouping.grouped.name ?? table.storeName, grouping.keySerde, changes);
  builder.addStore(materializedTableStore(table.storeName, materialized, keySerde, valueSerde));
  const node = builder.addProcessor("ktable-aggregate", tableAggregateProcessor(table, folding), [grouping.repartitionSource], [table.storeName], name);
  return { node, storeName: table.storeName, keySerde, valueSerde, operator: table, versionedStore: versionedIfSo(table.storeName, materialized?.storeType) };
}
