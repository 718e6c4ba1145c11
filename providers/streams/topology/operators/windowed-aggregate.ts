/**
 * Aggregations of a grouped stream over time windows, tumbling or hopping (Kafka Streams' KStreamWindowAggregate):
 * a window store (timestamped when asked) keeps each key's aggregate per window start; a record later than its
 * window's end plus grace is dropped. As in Kafka Streams, lateness is judged on the stream time this operator has
 * seen (not the task's: records that other operators of the task saw, or that were filtered out on the way, do not
 * close windows here), only null keys are dropped (a null value is aggregated), and a window's aggregate carries the
 * largest timestamp of its records. Updates are forwarded as they happen, or each window once when it closes
 * (EmitStrategy.onWindowClose, see window-emit).
 */
import type { TimeWindows, WindowMaterialized } from "../../../../kernel/contracts/streams/dsl";
import type { TimestampedWindowStore, WindowStore } from "../../../../kernel/contracts/streams/stores";
import { timeWindowedSerde } from "../../serdes/windowed-serde";
import type { InternalProcessorContext } from "../internal-context";
import { checkTimeWindows, timeWindowsRetention } from "../values/windows";
import { AggregationTable, aggregateTimestamp, withoutTimestamp, type StoredAggregate } from "./aggregate";
import type { Aggregation, Fold } from "./grouping";
import { emitTimeStore, storeRetention, windowEmitter } from "./window-emit";

/** Starts of the windows that contain `timestamp` (aligned to the epoch, as in Kafka Streams' windowsFor). */
function windowStartsFor(sizeMs: number, advanceMs: number, timestamp: number): number[] {
  const starts: number[] = [];
  let start = timestamp - (((timestamp % advanceMs) + advanceMs) % advanceMs);
  for (; start > timestamp - sizeMs; start -= advanceMs) if (start >= 0) starts.push(start);
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

export function timeWindowsAggregation(windows: TimeWindows, materialized: WindowMaterialized<any, any>, emitOnClose: boolean): Aggregation {
  const advanceMs = checkTimeWindows(windows);
  const { storeName } = materialized;
  const { sizeMs } = windows;
  const graceMs = windows.graceMs ?? 0;
  // Emitting on close forwards each window's largest timestamp: its store keeps them, as Kafka Streams' always do.
  const type = materialized.storeType ?? "timestamped_window";
  if (emitOnClose && type !== "timestamped_window") throw new Error(`window store '${storeName}' emits on window close: its type is timestamped_window`);
  const retentionMs = timeWindowsRetention(storeName, windows, materialized.retentionMs);
  const startsOf = (timestamp: number) => windowStartsFor(sizeMs, advanceMs, timestamp);
  const operator = new AggregationTable(storeName, false);
  const processor = ({ initializer, aggregator }: Fold) => windowEmitter({
    storeName,
    table: operator,
    windowSizeMs: sizeMs,
    graceMs,
    emitOnClose,
    accepts: (record) => record.key !== null && record.key !== undefined,
    open: (context) => {
      const store = windowAccess(context, storeName, type === "timestamped_window");
      return (record, closeTime, emitter) => {
        for (const windowStart of startsOf(record.timestamp)) {
          if (windowStart + sizeMs <= closeTime) {
            emitter.dropped();
            continue;
          }
          const previous = store.get(record.key, windowStart);
          const next = aggregator(record.key, record.value, previous === undefined ? initializer() : previous.value);
          const timestamp = aggregateTimestamp(previous, record.timestamp);
          store.put(record.key, next, windowStart, timestamp);
          emitter.updated(record, windowStart, next, timestamp, previous?.value);
        }
      };
    },
    // A window [s, s + size) is closed once its end is at or before stream time minus grace.
    emitFrom: (lastEmit) => (lastEmit === -1 ? 0 : Math.max(0, lastEmit - sizeMs) + 1),
    emitTo: (closeTime) => closeTime - sizeMs,
    closesNewWindows: (from, to, lastEmit) => lastEmit === -1 || String(startsOf(to)) !== String(startsOf(from - 1)),
  });
  return {
    prefix: "windowed-aggregate",
    operator,
    store: { type, windowSizeMs: sizeMs, retentionMs: storeRetention(retentionMs, emitOnClose), companions: emitOnClose ? [emitTimeStore(storeName)] : [] },
    processor,
    table: (table) => ({ ...table, keySerde: { wrap: (inner) => timeWindowedSerde(inner, sizeMs), inner: table.keySerde }, windowCloseMs: graceMs }),
  };
}
