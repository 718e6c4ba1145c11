/**
 * Stream-table joins, inner and left (Kafka Streams' KStreamKTableJoin): each stream record looks its key up in the
 * table's store; an inner join drops a record whose key has no table value. As in Kafka Streams 4.x, a record with
 * a null value never reaches the joiner, and one with a null key joins null in a left join (KIP-962) and is dropped
 * by an inner one. A stream whose key may have changed goes through a repartition topic first, so that each record
 * meets the table partition of its new key.
 */
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { KeyValueStore, TimestampedKeyValueStore } from "../../../../kernel/contracts/streams/stores";
import type { StreamHandle, TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { statefulProcessor } from "../processor-shapes";
import { repartition } from "./grouping";

function streamTableJoinProcessor(storeName: string, joiner: (value: any, tableValue: any) => unknown, left: boolean): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = context.getStateStore<KeyValueStore<unknown, unknown>>(storeName);
    const timestamped = store as unknown as TimestampedKeyValueStore<unknown, unknown>;
    const lookUp = store.type === "timestamped_key_value" ? (key: unknown) => timestamped.get(key)?.value : (key: unknown) => store.get(key);
    return (record) => {
      const keyless = record.key === null || record.key === undefined;
      if (record.value === null || record.value === undefined || (keyless && !left)) {
        context.recordDropped();
        return;
      }
      const tableValue = keyless ? undefined : lookUp(record.key);
      if (tableValue === undefined && !left) return;
      context.forward(record.withValue(joiner(record.value, tableValue ?? null)));
    };
  });
}

/** The joined stream keeps the stream's key serde; its values' serde is unknown. */
export function streamTableJoin(
  builder: InternalTopologyBuilder,
  parent: StreamHandle,
  table: TableHandle,
  joiner: (value: any, tableValue: any) => unknown,
  left: boolean,
  name?: string,
): StreamHandle {
  const node = builder.nodeName("join", name);
  // The repartition topic is keyed as the table is: its key serde when the stream's is not known.
  const keySerde = parent.keySerde ?? table.keySerde;
  const input = parent.keyChanged ? repartition(builder, parent.node, node, keySerde, parent.valueSerde) : parent.node;
  builder.addProcessor("join", streamTableJoinProcessor(table.storeName, joiner, left), [input], [table.storeName], node);
  return { node, keySerde, valueSerde: undefined, keyChanged: false };
}
