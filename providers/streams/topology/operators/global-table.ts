/**
 * Global tables (Kafka Streams' GlobalKTable), global stores a processor keeps (StreamsBuilder.addGlobalStore), and
 * the stream joins to global tables (KStreamGlobalKTableJoin). The table is a
 * global store outside the tasks (see state/global-store): every instance holds all of its topic, so a stream joins
 * it with no repartition and no co-partitioning, through a key selector that picks each record's row. The record
 * meets the row as the store has it when the record is processed: the table is not synchronised with the stream's
 * time. A null stream value never reaches the joiner; a record whose selected key is null, or that has no row, is
 * dropped by an inner join and joins null in a left join. The output keeps the stream record's key and timestamp.
 */
import type { Consumed, Materialized, StoreBuilder, StoreDeclaration } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import type { StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { statefulProcessor } from "../processor-shapes";
import { tableStore } from "../table-changes";

/** What the DSL knows of a global table: its store. */
export interface GlobalTableHandle {
  readonly storeName: string;
}

/** StreamsBuilder.globalTable: the store is named after the topic unless `materialized` names it. */
export function globalTable(builder: InternalTopologyBuilder, topic: string, consumed: Consumed<any, any>, materialized: Materialized<any, any> | undefined): GlobalTableHandle {
  const storeName = materialized?.storeName ?? topic;
  const type = materialized?.storeType ?? "timestamped_key_value";
  if (type !== "key_value" && type !== "timestamped_key_value") throw new Error(`global table '${storeName}' cannot be kept in a ${type} store: a global table is a key_value or timestamped_key_value store`);
  builder.addGlobalStore({ name: storeName, topic, type, keySerde: materialized?.keySerde ?? consumed.keySerde, valueSerde: materialized?.valueSerde ?? consumed.valueSerde });
  return { storeName };
}

/**
 * StreamsBuilder.addGlobalStore: a key_value or timestamped_key_value store on every instance, kept by a processor
 * of the caller's that receives every record of `topic` (read with `consumed`'s serdes). The topic is the store's
 * changelog, so the store keeps no other: Kafka Streams refuses a builder with logging enabled, and Sluice refuses
 * one given withLoggingEnabled(config).
 */
export function addGlobalStore(
  builder: InternalTopologyBuilder,
  given: StoreBuilder | StoreDeclaration,
  topic: string,
  consumed: Consumed<any, any>,
  supplier: ProcessorSupplier<any, any, void, void>,
): void {
  const store = "declaration" in given ? given.declaration() : given;
  if (store.changelogConfigs !== undefined) throw new Error(`StateStore ${store.name} for global table must not have logging enabled: topic '${topic}' is its changelog`);
  if (store.type !== "key_value" && store.type !== "timestamped_key_value") throw new Error(`global store '${store.name}' cannot be a ${store.type} store: Sluice keeps global stores as key_value or timestamped_key_value stores`);
  if (store.bytesStoreSupplier !== undefined) throw new Error(`global store '${store.name}' cannot be kept in a user's store supplier: Sluice keeps global stores in memory, filled from topic '${topic}' at each start`);
  if (typeof supplier !== "function") throw new TypeError(`addGlobalStore of store '${store.name}' takes a processor supplier that keeps the store`);
  const processor = { name: builder.nodeName("globalstore-processor"), supplier, keySerde: consumed.keySerde as SerdeSpec, valueSerde: consumed.valueSerde as SerdeSpec };
  builder.addGlobalStore({ name: store.name, topic, type: store.type, keySerde: store.keySerde as SerdeSpec, valueSerde: store.valueSerde as SerdeSpec, processor });
}

/** KStream.join / leftJoin with a global table. */
export function streamGlobalTableJoin(
  builder: InternalTopologyBuilder,
  parent: StreamHandle,
  table: GlobalTableHandle,
  keySelector: (key: any, value: any) => unknown,
  joiner: (value: any, globalValue: any, key: any) => unknown,
  left: boolean,
  name?: string,
): StreamHandle {
  const supplier = statefulProcessor((context) => {
    const rows = tableStore(context, table.storeName);
    return (record) => {
      if (record.value === null || record.value === undefined) {
        context.recordDropped();
        return;
      }
      const tableKey = keySelector(record.key, record.value);
      const keyless = tableKey === null || tableKey === undefined;
      if (keyless && !left) {
        context.recordDropped();
        return;
      }
      const globalValue = keyless ? undefined : rows.get(tableKey)?.value;
      if ((globalValue === undefined || globalValue === null) && !left) return;
      context.forward(record.withValue(joiner(record.value, globalValue ?? null, record.key)));
    };
  });
  const node = builder.addProcessor("globaljoin", supplier, [parent.node], [], name);
  return { node, keySerde: parent.keySerde, valueSerde: undefined, keyChanged: parent.keyChanged };
}
