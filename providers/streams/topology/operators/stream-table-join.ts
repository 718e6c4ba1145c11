/**
 * Stream-table joins, inner and left (Kafka Streams' KStreamKTableJoin): each stream record looks its key up in the
 * table's rows — its store, or the rows computed from the stores it derives from — and an inner join drops a record
 * whose key has no row. As in Kafka Streams 4.x, a record with a null value never reaches the joiner (it is dropped
 * and counted), and one with a null key joins null in a left join (KIP-962) and is dropped by an inner one. A stream
 * whose key may have changed goes through a repartition topic first, so that each record meets the table partition
 * of its new key. The output keeps the stream record's timestamp.
 */
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { StreamHandle, TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { statefulProcessor } from "../processor-shapes";
import type { TableView } from "../table-changes";
import { repartition } from "./grouping";

function streamTableJoinProcessor(table: TableView, joiner: (value: any, tableValue: any) => unknown, left: boolean): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const rows = table.reader(context);
    return (record) => {
      const keyless = record.key === null || record.key === undefined;
      if (record.value === null || record.value === undefined || (keyless && !left)) {
        context.recordDropped();
        return;
      }
      // A versioned table answers with the row valid at the stream record's time (KIP-914).
      const row = keyless ? undefined : rows.getAsOf !== undefined ? rows.getAsOf(record.key, record.timestamp) : rows.get(record.key);
      const tableValue = row?.value;
      if ((tableValue === undefined || tableValue === null) && !left) return;
      context.forward(record.withValue(joiner(record.value, tableValue ?? null)));
    };
  });
}

/** The joined stream keeps the stream's key serde (the table's, when the stream's is not known); its values' is unknown. */
export function streamTableJoin(
  builder: InternalTopologyBuilder,
  parent: StreamHandle,
  table: TableHandle,
  joiner: (value: any, tableValue: any) => unknown,
  left: boolean,
  name?: string,
): StreamHandle {
  const node = builder.nodeName("join", name);
  const keySerde = parent.keySerde ?? table.keySerde;
  const input = parent.keyChanged ? repartition(builder, parent.node, node, keySerde, parent.valueSerde) : parent.node;
  const view = table.operator.view();
  builder.addProcessor("join", streamTableJoinProcessor(view, joiner, left), [input], [...view.storeNames], node);
  return { node, keySerde, valueSerde: undefined, keyChanged: false };
}
