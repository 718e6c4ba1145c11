/**
 * Aggregations of a grouped stream over time windows, tumbling or hopping (Kafka Streams' KStreamWindowAggregate):
 * a window store (timestamped when asked) keeps each key's aggregate per window start; a record later than its
 * window's end plus grace is dropped. As in Kafka Streams, lateness is judged on the stream time this operator has
 * seen (not the task's: records that other operators of the task saw, or that were filtered out on the way, do not
 * close windows here), only null keys are dropped (a null value is aggregated), and a window's aggregate carries the
 * largest timestamp of its records.
 */
import type { TimeWindows, WindowMaterialized } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { TimestampedWindowStore, WindowStore } from "../../../../kernel/contracts/streams/stores";
import { timeWindowedSerde } from "../../serdes/windowed-serde";
import type { GroupedStreamHandle, TableHandle } from "../dsl-handles";
import type { InternalProcessorContext } from "../internal-context";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { keyed, statefulProcessor } from "../processor-shapes";
import { AggregationTable, aggregateTimestamp, withoutTimestamp, type Folding, type StoredAggregate } from "./aggregate";
import { change } from "../table-changes";
import { addAggregation } from "./grouping";

/** Starts of the windows that contain `timestamp` (aligned to the epoch, as in Kafka Streams). */
function windowStartsFor(windows: TimeWindows, timestamp: number): number[] {
  const advance = windows.type === "tumbling" ? windows.sizeMs : windows.advanceMs;
  const starts: number[] = [];
  let start = timestamp - (((timestamp % advance) + advance) % advance);
  for (; start > timestamp - windows.sizeMs; start -= advance) if (start >= 0) starts.push(start);
  return starts.reverse();
}

interface WindowAccess {
  get(key: unknown, windowStart: number): StoredAggregate | undefined;
  put(key: unknown, value: unknown, windowStart: number, timestamp: number): void;
}

function windowAccess(context: InternalProcessorContext, storeName: string, timestamped: boolean): WindowAccess {
  if (timestamped) {
    const store = context.getStateStore<TimestampedWindowStore<unknown, unknown>>(storeName);
    return {
      get: (key, start) => store.fetch(key, start),
      put: (key, value, start, timestamp) => store.put(key, value, start, timestamp),
    };
  }
  const store = context.getStateStore<WindowStore<unknown, unknown>>(storeName);
  return { get: (key, start) => withoutTimestamp(store.fetch(key, start)), put: (key, value, start) => store.put(key, value, start) };
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
    let observedStreamTime = -1;
    return (record) => {
      if (!keyed(context, record)) return;
      observedStreamTime = Math.max(observedStreamTime, record.timestamp);
      for (const windowStart of windowStartsFor(windows, record.timestamp)) {
        const windowEnd = windowStart + windows.sizeMs;
        if (windowEnd + grace <= observedStreamTime) {
          context.recordDropped();
          continue;
        }
        const previous = store.get(record.key, windowStart);
        const next = aggregator(record.key, record.value, previous === undefined ? initializer() : previous.value);
        const timestamp = aggregateTimestamp(previous, record.timestamp);
        store.put(record.key, next, windowStart, timestamp);
        const changed = change(next, sendOldValues ? previous?.value : null);
        context.forward(record.withKeyValue({ key: record.key, windowStart, windowEnd }, changed).withTimestamp(timestamp));
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
  const type = materialized.storeType ?? "timestamped_window";
  // Kafka Streams' default, and the least that keeps every window until it closes.
  const minimumRetention = windows.sizeMs + (windows.graceMs ?? 0);
  const retentionMs = Math.max(materialized.retentionMs ?? minimumRetention, minimumRetention);
  const operator = new AggregationTable(materialized.storeName, false);
  const supplier = windowedAggregateProcessor(operator, type === "timestamped_window", windows, folding);
  const store = { type, windowSizeMs: windows.sizeMs, retentionMs };
  const table = addAggregation(builder, grouping, materialized, store, folding.valueSerde, "windowed-aggregate", supplier);
  return { ...table, keySerde: { wrap: (inner) => timeWindowedSerde(inner, windows.sizeMs), inner: table.keySerde }, operator };
}
