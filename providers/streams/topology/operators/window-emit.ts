/**
 * What the time and sliding window aggregations share (Kafka Streams' AbstractKStreamTimeWindowAggregateProcessor):
 * the stream time the processor has observed, which decides when windows close, and the emit strategy. On window
 * update every change is forwarded as it happens, or with the record cache on once the cache flushes it (Kafka
 * Streams' caching window store). On window close (EmitStrategy.onWindowClose) nothing is forwarded
 * until stream time closes a window; then every window closed since the last emit is forwarded once, by window
 * start and then key bytes (the order of Kafka Streams' time-ordered window store), with its aggregate and largest
 * timestamp and the headers of the record that closed it. Emits happen at most once per emit interval of wall-clock
 * time (Kafka Streams' 1 s; none in the test driver, as in Kafka Streams'). The last emit's close time is kept in a
 * small store of its own, so that after a restart no window is emitted twice (Kafka Streams keeps it with the
 * committed offsets); the windows not yet emitted are loaded from the window store once it is restored.
 */
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { KeyValueStore, ReadOnlyTimestampedWindowStore, TimestampedWindowStore } from "../../../../kernel/contracts/streams/stores";
import { StreamsRecord } from "../../processor/record";
import type { InternalProcessorContext } from "../internal-context";
import { ObservedStreamTime, preparedProcessor, type Rec } from "../processor-shapes";
import { change, forwardsOnFlush } from "../table-changes";
import type { AggregationTable } from "./aggregate";

/** What a window operator tells its emitter as it processes a record. */
export interface WindowEmitter {
  /** A window's aggregate changed (`oldValue`: what it was, when there was one). */
  updated(record: Rec, windowStart: number, value: unknown, timestamp: number, oldValue?: unknown): void;
  /** The record, or its update of one window, was dropped (null key, late). */
  dropped(): void;
}

/** One record's processing: `closeTime` is stream time minus grace (windows that end by then are closed). */
export type WindowProcessing = (record: Rec, closeTime: number, emitter: WindowEmitter) => void;

export interface WindowOperator {
  storeName: string;
  /** The aggregation's table: whether a downstream asked for old values. */
  table: AggregationTable;
  windowSizeMs: number;
  graceMs: number;
  emitOnClose: boolean;
  /** Whether the record is aggregated at all (Kafka Streams drops null keys, and sliding windows null values). */
  accepts(record: Rec): boolean;
  /** Sets up a task's processing once its context is known. */
  open(context: InternalProcessorContext): WindowProcessing;
  /** On close: the first window start an emit after one at `lastEmit` (-1: none yet) may emit. */
  emitFrom(lastEmit: number): number;
  /** On close: the last window start that is closed at `closeTime`. */
  emitTo(closeTime: number): number;
  /** On close: whether the starts [from, to] hold a window the emit at `lastEmit` did not close (false saves a look). */
  closesNewWindows(from: number, to: number, lastEmit: number): boolean;
}

/**
 * The retention an emit-on-close aggregation's store is given: Kafka Streams' time-ordered window store, which
 * emitting on close uses, keeps a window while its start is at or after stream time minus retention — 1 ms longer
 * than its other window stores, whose rule Sluice's stores follow.
 */
export const storeRetention = (retentionMs: number, emitOnClose: boolean): number => (emitOnClose ? retentionMs + 1 : retentionMs);

/** The store where an emit-on-close aggregation keeps its last emit's close time. */
export const emitTimeStore = (storeName: string): string => `${storeName}-emit-close-time`;
const LAST_EMIT = "last-emit-window-close-time";

/**
 * What every emit-on-close aggregation (time, sliding and session windows) keeps between emits: the close time of the
 * last emit, in its store, and the wall-clock time before which no emit happens.
 */
export class CloseEmits {
  /** The close time of the last emit, -1 before the first. */
  lastEmit = -1;
  private nextEmitAt = 0;
  private readonly store: KeyValueStore<string, number>;
  private readonly interval: number;

  constructor(private readonly context: InternalProcessorContext, storeName: string) {
    this.store = context.getStateStore<KeyValueStore<string, number>>(emitTimeStore(storeName));
    this.interval = context.windowEmitIntervalMs();
  }

  load(): void {
    this.lastEmit = this.store.get(LAST_EMIT) ?? -1;
  }

  /** Whether to look for closed windows now: once per emit interval at most, and when close time passed the last emit's. */
  due(closeTime: number): boolean {
    const now = this.context.currentSystemTimeMs();
    if (now < this.nextEmitAt) return false;
    this.nextEmitAt = now + this.interval;
    return this.lastEmit === -1 || this.lastEmit < closeTime;
  }

  emitted(closeTime: number): void {
    this.lastEmit = closeTime;
    this.store.put(LAST_EMIT, closeTime);
  }
}

/** The windows an emit-on-close aggregation has not emitted yet: their keys by window start (a session's: its end). */
export class PendingWindows {
  private readonly byStart = new Map<number, Map<string, { key: unknown; keyBytes: Buffer }>>();

  add(start: number, key: unknown, keyBytes: Buffer): void {
    let keys = this.byStart.get(start);
    if (keys === undefined) this.byStart.set(start, (keys = new Map()));
    keys.set(keyBytes.toString("latin1"), { key, keyBytes });
  }

  remove(start: number, keyBytes: Buffer): void {
    const keys = this.byStart.get(start);
    keys?.delete(keyBytes.toString("latin1"));
    if (keys?.size === 0) this.byStart.delete(start);
  }

  /** Takes the windows that start in [from, to], by start then key bytes, and forgets those that start before `to`. */
  take(from: number, to: number): { start: number; key: unknown }[] {
    const taken: { start: number; key: unknown }[] = [];
    const starts = [...this.byStart.keys()].filter((start) => start <= to).sort((a, b) => a - b);
    for (const start of starts) {
      const keys = this.byStart.get(start)!;
      this.byStart.delete(start);
      if (start < from) continue;
      const sorted = [...keys.values()].sort((a, b) => Buffer.compare(a.keyBytes, b.keyBytes));
      for (const { key } of sorted) taken.push({ start, key });
    }
    return taken;
  }
}

export function windowEmitter(operator: WindowOperator): ProcessorSupplier<any, any, any, any> {
  const { windowSizeMs, graceMs, emitOnClose } = operator;
  return preparedProcessor((context) => {
    const processing = operator.open(context);
    if (emitOnClose) return onCloseEmitter(context, operator, processing);
    const streamTime = new ObservedStreamTime();
    // With the record cache on, the store forwards each window's folded updates as the cache flushes them.
    const flushForwards = forwardsOnFlush(context, context.getStateStore(operator.storeName), operator.table.forwardsOldValues);
    const emitter: WindowEmitter = {
      updated: (record, start, value, timestamp, oldValue) => {
        if (flushForwards) return;
        const windowed = { key: record.key, windowStart: start, windowEnd: start + windowSizeMs };
        context.forward(record.withKeyValue(windowed, change(value, operator.table.forwardsOldValues ? oldValue : null)).withTimestamp(timestamp));
      },
      dropped: () => context.recordDropped(),
    };
    return {
      load: async () => undefined,
      process(record) {
        if (!operator.accepts(record)) return context.recordDropped();
        processing(record, streamTime.observe(record.timestamp) - graceMs, emitter);
      },
    };
  });
}

function onCloseEmitter(context: InternalProcessorContext, operator: WindowOperator, processing: WindowProcessing) {
  const { storeName, windowSizeMs, graceMs } = operator;
  const store = context.getStateStore<TimestampedWindowStore<unknown, unknown>>(storeName);
  const emits = new CloseEmits(context, storeName);
  const keySerde = context.storeSpec(storeName).keySerde;
  let pending = new PendingWindows();
  const streamTime = new ObservedStreamTime();
  const emitter: WindowEmitter = {
    updated: (record, start) => pending.add(start, record.key, keySerde.serialize(record.key)),
    dropped: () => context.recordDropped(),
  };
  const emitClosed = (record: Rec, closeTime: number) => {
    if (!emits.due(closeTime)) return;
    const to = operator.emitTo(closeTime);
    if (to < 0) return;
    const from = operator.emitFrom(emits.lastEmit);
    if (!operator.closesNewWindows(from, to, emits.lastEmit)) return;
    for (const { start, key } of pending.take(from, to)) {
      const window = store.fetch(key, start);
      if (window === undefined) continue;
      const windowed = { key, windowStart: start, windowEnd: start + windowSizeMs };
      context.forward(new StreamsRecord(windowed, change(window.value, null), window.timestamp, record.headerList()));
    }
    emits.emitted(closeTime);
  };
  return {
    async load() {
      emits.load();
      pending = new PendingWindows();
      const committed = context.committedStore(storeName).store as ReadOnlyTimestampedWindowStore<unknown, unknown>;
      for await (const window of committed.fetchAll(operator.emitFrom(emits.lastEmit), Number.MAX_SAFE_INTEGER)) pending.add(window.windowStart, window.key, keySerde.serialize(window.key));
    },
    process(record: Rec) {
      if (!operator.accepts(record)) return context.recordDropped();
      const closeTime = streamTime.observe(record.timestamp) - graceMs;
      processing(record, closeTime, emitter);
      emitClosed(record, closeTime);
    },
  };
}
