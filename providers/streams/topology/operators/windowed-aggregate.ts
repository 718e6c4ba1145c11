/**
 * Aggregations of a grouped stream over time windows, tumbling or hopping (Kafka Streams' KStreamWindowAggregate):
 * a window store (timestamped when asked) keeps each key's aggregate per window start; a record later than its
 * window's end plus grace is dropped.
 */
import type { TimeWindows, WindowMaterialized } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { TimestampedWindowStore, WindowStore } from "../../../../kernel/contracts/streams/stores";
import { windowedSerde } from "../../serdes/windowed-serde";
import type { GroupedStreamHandle, TableHandle } from "../dsl-handles";
import type { InternalProcessorContext } from "../internal-context";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { keyed, statefulProcessor } from "../processor-shapes";
import { AggregationTable, type Folding } from "./aggregate";
import { change } from "../table-changes";
import { addAggregation } from "./grouping";

/** How long windowed and session stores keep their data unless told: one day, as in Kafka Streams. */
export const DEFAULT_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Starts of the windows that contain `timestamp` (aligned to the epoch, as in Kafka Streams). */
function windowStartsFor(windows: TimeWindows, timestamp: number): number[] {
  const advance = windows.type === "tumbling" ? windows.sizeMs : windows.advanceMs;
  const starts: number[] = [];
  let start = timestamp - (((timestamp % advance) + advance) % advance);
  for (; start > timestamp - windows.sizeMs; start -= advance) if (start >= 0) starts.push(start);
  return starts.reverse();
}

interface WindowAccess {
  get(key: unknown, windowStart: number): unknown;
  put(key: unknown, value: unknown, windowStart: number, timestamp: number): void;
}

function windowAccess(context: InternalProcessorContext, storeName: string, timestamped: boolean): WindowAccess {
  if (timestamped) {
    const store = context.getStateStore<TimestampedWindowStore<unknown, unknown>>(storeName);
    return {
      get: (key, start) => store.fetch(key, start)?.value,
      put: (key, value, start, timestamp) => store.put(key, value, start, timestamp),
    };
  }
  const store = context.getStateStore<WindowStore<unknown, unknown>>(storeName);
  return { get: (key, start) => store.fetch(key, start), put: (key, value, start) => store.put(key, value, start) };
}

function windowedAggregateProcessor(
  table: AggregationTable,
  timestamped: boolean,
  windows: TimeWindows,
  { initializer, aggregator }: Folding,
): ProcessorSupplier<any, any, any, any> {
  const grace = windows.graceMs ?? 0;
  return statefulProcessor((context) => {
    const store = windowAccess(context, table.storeName, timestamped);
    const sendOldValues = table.forwardsOldValues;
    return (record) => {
      if (!keyed(context, record) || record.value === null || record.value === undefined) return;
      const streamTime = context.currentStreamTimeMs();
      for (const windowStart of windowStartsFor(windows, record.timestamp)) {
        const windowEnd = windowStart + windows.sizeMs;
        if (windowEnd + grace <= streamTime) {
          context.recordDropped();
          continue;
        }
        const previous = store.get(record.key, windowStart);
        const next = aggregator(record.key, record.value, previous === undefined ? initializer() : previous);
        store.put(record.key, next, windowStart, record.timestamp);
        context.forward(record.withKeyValue({ key: record.key, windowStart, windowEnd }, change(next, sendOldValues ? previous : null)));
      }
    };
  });
}

export function windowedAggregate(
  builder: InternalTopologyBuilder,
  grouping: GroupedStreamHandle,
  windows: TimeWindows,
  materialized: WindowMaterialized<any, any>,
  folding: Folding,
): TableHandle {
  const type = materialized.storeType ?? "window";
  const minimumRetention = windows.sizeMs + (windows.graceMs ?? 0);
  const retentionMs = Math.max(materialized.retentionMs ?? DEFAULT_RETENTION_MS, minimumRetention);
  const operator = new AggregationTable(materialized.storeName, false);
  const supplier = windowedAggregateProcessor(operator, type === "timestamped_window", windows, folding);
  const store = { type, windowSizeMs: windows.sizeMs, retentionMs };
  const table = addAggregation(builder, grouping, materialized, store, folding.valueSerde, "windowed-aggregate", supplier);
  return { ...table, keySerde: { wrap: windowedSerde, inner: table.keySerde }, operator };
}
