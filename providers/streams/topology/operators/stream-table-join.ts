/**
 * Stream-table joins, inner and left (Kafka Streams' KStreamKTableJoin): each stream record looks its key up in the
 * table's store; an inner join drops a record whose key has no table value.
 */
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { KeyValueStore } from "../../../../kernel/contracts/streams/stores";
import type { StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { keyed, statefulProcessor } from "../processor-shapes";

function streamTableJoinProcessor(storeName: string, joiner: (value: any, tableValue: any) => unknown, left: boolean): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = context.getStateStore<KeyValueStore<unknown, unknown>>(storeName);
    return (record) => {
      if (!keyed(context, record)) return;
      const tableValue = store.get(record.key);
      if (tableValue === undefined && !left) return;
      context.forward(record.withValue(joiner(record.value, tableValue ?? null)));
    };
  });
}

/** The joined stream keeps the stream's key serde; its values' serde is unknown. */
export function streamTableJoin(
  builder: InternalTopologyBuilder,
  parent: StreamHandle,
  tableStore: string,
  joiner: (value: any, tableValue: any) => unknown,
  left: boolean,
  name?: string,
): StreamHandle {
  const node = builder.addProcessor("join", streamTableJoinProcessor(tableStore, joiner, left), [parent.node], [tableStore], name);
  return { node, keySerde: parent.keySerde, valueSerde: undefined, keyChanged: parent.keyChanged };
}
