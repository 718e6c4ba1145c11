/**
 * Aggregations of a grouped stream over session windows (Kafka Streams' KStreamSessionWindowAggregate): a record
 * within the gap of a key's sessions merges them into one; each merged session is deleted downstream (a tombstone)
 * and the new one forwarded, each with its session's end as timestamp. As in Kafka Streams, lateness is judged on
 * the merged session's end against the stream time this operator has seen, and only null keys are dropped. With the
 * record cache on, a session's updates fold there and go downstream once flushed (Kafka Streams' caching session
 * store), a session created and merged away within one flush not at all.
 */
import type { SessionMaterialized, SessionWindows } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { SessionStore } from "../../../../kernel/contracts/streams/stores";
import { sessionWindowedSerde } from "../../serdes/windowed-serde";
import { keyed, ObservedStreamTime, statefulProcessor } from "../processor-shapes";
import { change, forwardsOnFlush } from "../table-changes";
import { AggregationTable } from "./aggregate";
import type { Aggregation, Fold } from "./grouping";
import { checkSessionWindows, sessionWindowsRetention } from "../values/windows";

export type Merger = (key: any, left: any, right: any) => any;

/** Two sessions' counts merge by adding them. */
export const countMerger: Merger = (_key, left: number, right: number) => left + right;

/** Two sessions' reductions merge by reducing the later one into the earlier. */
export const reduceMerger =
  ({ aggregator }: Fold): Merger =>
  (key, left, right) =>
    aggregator(key, right, left);

function sessionAggregateProcessor(
  table: AggregationTable,
  gapMs: number,
  graceMs: number,
  { initializer, aggregator }: Fold,
  merger: Merger,
): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = context.getStateStore<SessionStore<unknown, unknown>>(table.storeName);
    const sendOldValues = table.forwardsOldValues;
    const flushForwards = forwardsOnFlush(context, store, sendOldValues);
    const streamTime = new ObservedStreamTime();
    return (record) => {
      if (!keyed(context, record)) return;
      const timestamp = record.timestamp;
      const observedStreamTime = streamTime.observe(timestamp);
      const merged = store.findSessions(record.key, timestamp - gapMs, timestamp + gapMs);
      let start = timestamp;
      let end = timestamp;
      let aggregate = initializer();
      for (const session of merged) {
        start = Math.min(start, session.windowStart);
        end = Math.max(end, session.windowEnd);
        aggregate = merger(record.key, aggregate, session.value);
      }
      if (end < observedStreamTime - gapMs - graceMs) {
        context.recordDropped();
        return;
      }
      // Kafka Streams replaces the sessions a record joins, unless the record makes a new session of its own.
      if (start !== timestamp || end !== timestamp) {
        for (const session of merged) {
          store.remove({ key: record.key, start: session.windowStart, end: session.windowEnd });
          const sessionKey = { key: record.key, windowStart: session.windowStart, windowEnd: session.windowEnd };
          if (!flushForwards) context.forward(record.withKeyValue(sessionKey, change(null, sendOldValues ? session.value : null)).withTimestamp(session.windowEnd));
        }
      }
      aggregate = aggregator(record.key, record.value, aggregate);
      store.put({ key: record.key, start, end }, aggregate);
      if (!flushForwards) context.forward(record.withKeyValue({ key: record.key, windowStart: start, windowEnd: end }, change(aggregate, null)).withTimestamp(end));
    };
  });
}

export function sessionWindowsAggregation(windows: SessionWindows, materialized: SessionMaterialized<any, any>, merger: Merger): Aggregation {
  checkSessionWindows(windows);
  const graceMs = windows.graceMs ?? 0;
  const retentionMs = sessionWindowsRetention(materialized.storeName, windows, materialized.retentionMs);
  const operator = new AggregationTable(materialized.storeName, false);
  return {
    prefix: "session-aggregate",
    operator,
    store: { type: "session", retentionMs },
    processor: (fold) => sessionAggregateProcessor(operator, windows.gapMs, graceMs, fold, merger),
    table: (table) => ({ ...table, keySerde: { wrap: sessionWindowedSerde, inner: table.keySerde }, windowCloseMs: windows.gapMs + graceMs }),
  };
}
