/**
 * Tables read from a topic (Kafka Streams' StreamsBuilder.table, KTableSource) and back to a stream
 * (KTable.toStream): the source materializes every record in a key_value store (timestamped when materialized so, as
 * Kafka Streams' tables are), a null value deleting its key.
 */
import type { Consumed, Materialized } from "../../../../kernel/contracts/streams/dsl";
import type { KeyValueStore, TimestampedKeyValueStore } from "../../../../kernel/contracts/streams/stores";
import type { StreamHandle, TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { forwardsOnFlush, keyed, passThroughProcessor, statefulProcessor } from "../processor-shapes";

function tableSourceProcessor(storeName: string) {
  return statefulProcessor((context) => {
    const store = context.getStateStore<KeyValueStore<unknown, unknown>>(storeName);
    const timestamped = store as unknown as TimestampedKeyValueStore<unknown, unknown>;
    const put =
      store.type === "timestamped_key_value"
        ? (key: unknown, value: unknown, timestamp: number) => timestamped.put(key, value, timestamp)
        : (key: unknown, value: unknown) => store.put(key, value);
    const forwarded = forwardsOnFlush(context, store);
    return (record) => {
      if (!keyed(context, record)) return;
      put(record.key, record.value ?? null, record.timestamp);
      if (!forwarded) context.forward(record);
    };
  });
}

/** The store is named after the topic unless `materialized` names it. */
export function tableSource(
  builder: InternalTopologyBuilder,
  topic: string,
  consumed: Consumed<any, any>,
  materialized: Materialized<any, any> | undefined,
): TableHandle {
  const source = builder.addSource([topic], consumed.keySerde, consumed.valueSerde, consumed.name, consumed.timestampExtractor);
  const storeName = materialized?.storeName ?? topic;
  const keySerde = materialized?.keySerde ?? consumed.keySerde;
  const valueSerde = materialized?.valueSerde ?? consumed.valueSerde;
  builder.addStore({ name: storeName, type: materialized?.storeType ?? "key_value", keySerde, valueSerde });
  const node = builder.addProcessor("table", tableSourceProcessor(storeName), [source], [storeName]);
  return { node, storeName, keySerde, valueSerde };
}

export function toStream(builder: InternalTopologyBuilder, table: TableHandle, name?: string): StreamHandle {
  const node = builder.addProcessor("tostream", passThroughProcessor(), [table.node], [], name);
  return { node, keySerde: table.keySerde, valueSerde: table.valueSerde, keyChanged: false };
}
