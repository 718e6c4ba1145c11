/**
 * Aggregations of a grouped stream over session windows (Kafka Streams' KStreamSessionWindowAggregate): a record
 * within the gap of a key's sessions merges them into one; each merged session is deleted downstream (a tombstone)
 * and the new one forwarded, each with its session's end as timestamp. As in Kafka Streams, lateness is judged on
 * the merged session's end against the stream time this operator has seen, and only null keys are dropped. With the
 * record cache on, a session's updates fold there and go downstream once flushed (Kafka Streams' caching session
 * store), a session created and merged away within one flush not at all. With EmitStrategy.onWindowClose, each
 * session goes downstream once, when it closes (see onCloseForwarding).
 */
import type { SessionMaterialized, SessionWindows } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { ReadOnlySessionStore, SessionStore } from "../../../../kernel/contracts/streams/stores";
import { StreamsRecord } from "../../processor/record";
import { sessionWindowedSerde } from "../../serdes/windowed-serde";
import { encodeTimes } from "../../state/key-layout";
import type { InternalProcessorContext } from "../internal-context";
import { keyed, ObservedStreamTime, preparedProcessor, type Rec } from "../processor-shapes";
import { change, forwardsOnFlush } from "../table-changes";
import { AggregationTable } from "./aggregate";
import type { Aggregation, Fold } from "./grouping";
import { checkSessionWindows, sessionWindowsRetention } from "../values/windows";
import { CloseEmits, emitTimeStore, PendingWindows } from "./window-emit";

export type Merger = (key: any, left: any, right: any) => any;

/** Two sessions' counts merge by adding them. */
export const countMerger: Merger = (_key, left: number, right: number) => left + right;

/** Two sessions' reductions merge by reducing the later one into the earlier. */
export const reduceMerger =
  ({ aggregator }: Fold): Merger =>
  (key, left, right) =>
    aggregator(key, right, left);

/** A session as the processor names it. */
interface Session {
  key: unknown;
  start: number;
  end: number;
}

/** Where a session processor's changes go: downstream at once (or through the record cache), or on close. */
interface SessionForwarding {
  /** Fills what is kept in memory from the restored stores, before the first record. */
  load(): Promise<void>;
  /** A session merged away into a new one. */
  removed(record: Rec, session: Session, value: unknown): void;
  updated(record: Rec, session: Session, value: unknown): void;
  /** After each keyed record, with the close time it brought. */
  processed(record: Rec, closeTime: number): void;
}

const windowed = ({ key, start, end }: Session) => ({ key, windowStart: start, windowEnd: end });

function onUpdateForwarding(context: InternalProcessorContext, store: SessionStore<unknown, unknown>, sendOldValues: boolean): SessionForwarding {
  const flushForwards = forwardsOnFlush(context, store, sendOldValues);
  return {
    load: async () => undefined,
    removed(record, session, value) {
      if (!flushForwards) context.forward(record.withKeyValue(windowed(session), change(null, sendOldValues ? value : null)).withTimestamp(session.end));
    },
    updated(record, session, value) {
      if (!flushForwards) context.forward(record.withKeyValue(windowed(session), change(value, null)).withTimestamp(session.end));
    },
    processed: () => undefined,
  };
}

/**
 * EmitStrategy.onWindowClose for sessions (Kafka Streams' KStreamSessionWindowAggregate): nothing goes downstream
 * while sessions grow and merge; once stream time minus gap and grace passes a session's end, the session is emitted
 * once, with its end as timestamp and the headers of the record that closed it. Sessions closing together go by end,
 * then start, then key bytes (Kafka Streams' time-ordered session store). The sessions not yet emitted, with their
 * aggregates, are kept in memory by end, and loaded from the restored session store.
 */
function onCloseForwarding(context: InternalProcessorContext, storeName: string): SessionForwarding {
  const emits = new CloseEmits(context, storeName);
  const keySerde = context.storeSpec(storeName).keySerde;
  let pending = new PendingWindows();
  /** By end, then this: the start's bytes, then the key's. */
  const placeBytes = (session: Session) => Buffer.concat([encodeTimes(session.start), keySerde.serialize(session.key)]);
  const add = (session: Session, value: unknown) => pending.add(session.end, { ...session, value }, placeBytes(session));
  return {
    async load() {
      emits.load();
      pending = new PendingWindows();
      const committed = context.committedStore(storeName).store as ReadOnlySessionStore<unknown, unknown>;
      const from = Math.max(0, emits.lastEmit);
      for await (const entry of committed.fetchKeyRange(undefined, undefined)) {
        if (entry.windowEnd >= from) add({ key: entry.key, start: entry.windowStart, end: entry.windowEnd }, entry.value);
      }
    },
    removed: (_record, session) => pending.remove(session.end, placeBytes(session)),
    updated: (_record, session, value) => add(session, value),
    processed(record, closeTime) {
      if (!emits.due(closeTime)) return;
      // A session's end is inclusive: the sessions closed are those that end before the close time.
      const to = closeTime - 1;
      const from = Math.max(0, emits.lastEmit);
      if (to < from) return;
      for (const { key } of pending.take(from, to)) {
        const { value, ...session } = key as Session & { value: unknown };
        context.forward(new StreamsRecord(windowed(session), change(value, null), session.end, record.headerList()));
      }
      emits.emitted(closeTime);
    },
  };
}

function sessionAggregateProcessor(
  table: AggregationTable,
  gapMs: number,
  graceMs: number,
  { initializer, aggregator }: Fold,
  merger: Merger,
  emitOnClose: boolean,
): ProcessorSupplier<any, any, any, any> {
  return preparedProcessor((context) => {
    const store = context.getStateStore<SessionStore<unknown, unknown>>(table.storeName);
    const forwarding = emitOnClose ? onCloseForwarding(context, table.storeName) : onUpdateForwarding(context, store, table.forwardsOldValues);
    const streamTime = new ObservedStreamTime();
    return {
      load: () => forwarding.load(),
      process(record) {
        if (!keyed(context, record)) return;
        const timestamp = record.timestamp;
        const closeTime = streamTime.observe(timestamp) - gapMs - graceMs;
        const merged = store.findSessions(record.key, timestamp - gapMs, timestamp + gapMs);
        let start = timestamp;
        let end = timestamp;
        let aggregate = initializer();
        for (const session of merged) {
          start = Math.min(start, session.windowStart);
          end = Math.max(end, session.windowEnd);
          aggregate = merger(record.key, aggregate, session.value);
        }
        if (end < closeTime) {
          context.recordDropped();
        } else {
          // Kafka Streams replaces the sessions a record joins, unless the record makes a new session of its own.
          if (start !== timestamp || end !== timestamp) {
            for (const session of merged) {
              store.remove({ key: record.key, start: session.windowStart, end: session.windowEnd });
              forwarding.removed(record, { key: record.key, start: session.windowStart, end: session.windowEnd }, session.value);
            }
          }
          aggregate = aggregator(record.key, record.value, aggregate);
          store.put({ key: record.key, start, end }, aggregate);
          forwarding.updated(record, { key: record.key, start, end }, aggregate);
        }
        forwarding.processed(record, closeTime);
      },
    };
  });
}

export function sessionWindowsAggregation(windows: SessionWindows, materialized: SessionMaterialized<any, any>, merger: Merger, emitOnClose = false): Aggregation {
  checkSessionWindows(windows);
  const graceMs = windows.graceMs ?? 0;
  const retentionMs = sessionWindowsRetention(materialized.storeName, windows, materialized.retentionMs);
  const operator = new AggregationTable(materialized.storeName, false);
  return {
    prefix: "session-aggregate",
    operator,
    store: { type: "session", retentionMs, companions: emitOnClose ? [emitTimeStore(materialized.storeName)] : [] },
    processor: (fold) => sessionAggregateProcessor(operator, windows.gapMs, graceMs, fold, merger, emitOnClose),
    table: (table) => ({ ...table, keySerde: { wrap: sessionWindowedSerde, inner: table.keySerde }, windowCloseMs: windows.gapMs + graceMs }),
  };
}
