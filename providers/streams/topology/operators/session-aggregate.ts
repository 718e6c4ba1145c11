/**
 * Aggregations of a grouped stream over session windows (Kafka Streams' KStreamSessionWindowAggregate): a record
 * within the gap of a key's sessions merges them into one; each merged session is deleted downstream (a tombstone)
 * and the new one forwarded.
 */
import type { SessionMaterialized, SessionWindows } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SessionStore } from "../../../../kernel/contracts/streams/stores";
import { windowedSerde } from "../../serdes/windowed-serde";
import type { GroupedStreamHandle, TableHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { keyed, statefulProcessor } from "../processor-shapes";
import { AggregationTable, type Folding } from "./aggregate";
import { change } from "../table-changes";
import { addAggregation } from "./grouping";
import { DEFAULT_RETENTION_MS } from "./windowed-aggregate";

export type Merger = (key: any, left: any, right: any) => any;

/** Two sessions' counts merge by adding them. */
export const countMerger: Merger = (_key, left: number, right: number) => left + right;

/** Two sessions' reductions merge by reducing the later one into the earlier. */
export const reduceMerger =
  ({ aggregator }: Folding): Merger =>
  (key, left, right) =>
    aggregator(key, right, left);

function sessionAggregateProcessor(
  table: AggregationTable,
  gapMs: number,
  graceMs: number,
  { initializer, aggregator }: Folding,
  merger: Merger,
): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = context.getStateStore<SessionStore<unknown, unknown>>(table.storeName);
    const sendOldValues = table.forwardsOldValues;
    return (record) => {
      if (!keyed(context, record) || record.value === null || record.value === undefined) return;
      const timestamp = record.timestamp;
      if (timestamp < context.currentStreamTimeMs() - gapMs - graceMs) {
        context.recordDropped();
        return;
      }
      let start = timestamp;
      let end = timestamp;
      let aggregate = initializer();
      for (const session of store.findSessions(record.key, timestamp - gapMs, timestamp + gapMs)) {
        start = Math.min(start, session.windowStart);
        end = Math.max(end, session.windowEnd);
        aggregate = merger(record.key, aggregate, session.value);
        store.remove({ key: record.key, start: session.windowStart, end: session.windowEnd });
        context.forward(record.withKeyValue({ key: record.key, windowStart: session.windowStart, windowEnd: session.windowEnd }, change(null, sendOldValues ? session.value : null)));
      }
      aggregate = aggregator(record.key, record.value, aggregate);
      store.put({ key: record.key, start, end }, aggregate);
      context.forward(record.withKeyValue({ key: record.key, windowStart: start, windowEnd: end }, change(aggregate, null)));
    };
  });
}

export function sessionAggregate(
  builder: InternalTopologyBuilder,
  grouping: GroupedStreamHandle,
  windows: SessionWindows,
  materialized: SessionMaterialized<any, any>,
  folding: Folding,
  merger: Merger,
): TableHandle {
  const graceMs = windows.graceMs ?? 0;
  const retentionMs = Math.max(materialized.retentionMs ?? DEFAULT_RETENTION_MS, windows.gapMs + graceMs);
  const operator = new AggregationTable(materialized.storeName, false);
  const supplier = sessionAggregateProcessor(operator, windows.gapMs, graceMs, folding, merger);
  const table = addAggregation(builder, grouping, materialized, { type: "session", retentionMs }, folding.valueSerde, "session-aggregate", supplier);
  return { ...table, keySerde: { wrap: windowedSerde, inner: table.keySerde }, operator };
}
