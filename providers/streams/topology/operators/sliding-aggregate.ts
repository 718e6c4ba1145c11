/**
 * Aggregations of a grouped stream over sliding windows (Kafka Streams' KStreamSlidingWindowAggregate): windows of
 * `timeDifferenceMs`, inclusive at both ends, exist where records are. A record at t has its left window [t - d, t],
 * and the right window [t + 1, t + 1 + d] of each record starts just after it once a later record falls in it. A
 * record updates every window that contains it, creates its left window (with the aggregate of the records before it
 * within d), its right window when later records are in it, and the previous record's right window when missing.
 * The store keeps each window's aggregate and largest timestamp (timestamped_window): which records a window holds is
 * known from them alone. A record earlier than d is put in the window [0, d] (no window starts before 0). Late
 * records (their window ends before stream time minus grace) and records with a null key or value are dropped.
 */
import type { SlidingWindows, WindowMaterialized } from "../../../../kernel/contracts/streams/dsl";
import type { TimestampedWindowStore, TimestampedWindowedEntry } from "../../../../kernel/contracts/streams/stores";
import { timeWindowedSerde } from "../../serdes/windowed-serde";
import type { Rec } from "../processor-shapes";
import { checkSlidingWindows, slidingWindowsRetention } from "../values/windows";
import { AggregationTable } from "./aggregate";
import type { Aggregation, Fold } from "./grouping";
import { emitTimeStore, storeRetention, windowEmitter, type WindowEmitter } from "./window-emit";

type Stored = { value: unknown; timestamp: number };

/** What one record does to its key's sliding windows; forwards through `emitter`. */
class SlidingWindowUpdate {
  private readonly starts = new Set<number>();
  private leftAggregate: Stored | undefined;
  private rightAggregate: Stored | undefined;
  private leftCreated = false;
  private rightCreated = false;
  private previousTimestamp: number | undefined;

  constructor(
    private readonly store: TimestampedWindowStore<unknown, unknown>,
    private readonly folding: Fold,
    private readonly differenceMs: number,
    private readonly record: Rec,
    private readonly closeTime: number,
    private readonly emitter: WindowEmitter,
  ) {}

  /** Kafka Streams' processReverse: the key's windows from the latest back, until the left window's predecessor. */
  run(): void {
    const { record, differenceMs } = this;
    const t = record.timestamp;
    const windows = this.store.fetchRange(record.key, Math.max(0, t - 2 * differenceMs), t + 1).reverse();
    for (const window of windows) {
      const start = window.windowStart;
      this.starts.add(start);
      const end = start + differenceMs;
      if (start === t + 1) this.rightCreated = true;
      else if (end > t) {
        this.rightAggregate ??= window;
        this.update(start, window);
      } else if (end === t) {
        this.leftCreated = true;
        this.update(start, window);
        if (window.timestamp < t) this.previousTimestamp = window.timestamp;
        // A record at t is in the windows already: those it belongs to were updated, none is to be made.
        else return;
      } else {
        this.leftAggregate = window;
        this.previousTimestamp = window.timestamp;
        break;
      }
    }
    this.create();
  }

  /** Kafka Streams' processEarly, for a record before `differenceMs`: its left window is [0, d]. */
  runEarly(): void {
    const { record } = this;
    const t = record.timestamp;
    let combined: TimestampedWindowedEntry<unknown, unknown> | undefined;
    for (const window of this.store.fetchRange(record.key, 0, t + 1)) {
      const start = window.windowStart;
      this.starts.add(start);
      if (start === 0) {
        combined = window;
        if (window.timestamp < t) this.previousTimestamp = window.timestamp;
      } else if (start <= t) {
        this.rightAggregate = window;
        this.update(start, window);
      } else if (start === t + 1) this.rightCreated = true;
    }
    if (this.rightAggregate === undefined && combined !== undefined && combined.timestamp > t) this.rightAggregate = combined;
    if (!this.rightCreated && this.rightNotEmpty()) this.createRight();
    if (this.previousTimestamp !== undefined && !this.starts.has(this.previousTimestamp + 1)) this.createEmpty(this.previousTimestamp + 1);
    this.update(0, combined ?? { value: this.folding.initializer(), timestamp: t });
  }

  private create(): void {
    const t = this.record.timestamp;
    const previous = this.previousTimestamp;
    if (previous !== undefined) {
      const previousRightStart = previous + 1;
      if (!this.starts.has(previousRightStart) && previousRightStart + this.differenceMs >= t) this.createEmpty(previousRightStart);
    }
    if (!this.leftCreated) {
      const leftNotEmpty = previous !== undefined && t - this.differenceMs <= previous;
      const value = leftNotEmpty ? this.leftAggregate!.value : this.folding.initializer();
      this.update(t - this.differenceMs, { value, timestamp: t });
    }
    if (!this.rightCreated && this.rightNotEmpty()) this.createRight();
  }

  private rightNotEmpty(): boolean {
    return this.rightAggregate !== undefined && this.rightAggregate.timestamp > this.record.timestamp;
  }

  /** The record's right window holds the records after it within d: the aggregate of the window they were in. */
  private createRight(): void {
    const start = this.record.timestamp + 1;
    const { value, timestamp } = this.rightAggregate!;
    this.store.put(this.record.key, value, start, timestamp);
    this.emitter.updated(this.record, start, value, timestamp);
  }

  private createEmpty(start: number): void {
    this.update(start, { value: this.folding.initializer(), timestamp: this.record.timestamp });
  }

  /** Aggregates the record into a window (a new one holds the initial value at the record's time), unless it is closed. */
  private update(start: number, window: Stored): void {
    const { record } = this;
    if (start + this.differenceMs < this.closeTime) {
      this.emitter.dropped();
      return;
    }
    const value = this.folding.aggregator(record.key, record.value, window.value);
    const timestamp = Math.max(record.timestamp, window.timestamp);
    this.store.put(record.key, value, start, timestamp);
    this.emitter.updated(record, start, value, timestamp);
  }
}

export function slidingWindowsAggregation(windows: SlidingWindows, materialized: WindowMaterialized<any, any>, emitOnClose: boolean): Aggregation {
  checkSlidingWindows(windows);
  const { storeName } = materialized;
  if (materialized.storeType === "window") throw new Error(`the store '${storeName}' of sliding windows keeps each window's timestamp: its type is timestamped_window`);
  const differenceMs = windows.timeDifferenceMs;
  const graceMs = windows.graceMs ?? 0;
  const retentionMs = slidingWindowsRetention(storeName, windows, materialized.retentionMs);
  const operator = new AggregationTable(storeName, false);
  const processor = (fold: Fold) => windowEmitter({
    storeName,
    table: operator,
    windowSizeMs: differenceMs,
    graceMs,
    emitOnClose,
    accepts: (record) => record.key !== null && record.key !== undefined && record.value !== null && record.value !== undefined,
    open: (context) => {
      const store = context.getStateStore<TimestampedWindowStore<unknown, unknown>>(storeName);
      return (record, closeTime, emitter) => {
        if (record.timestamp + differenceMs < closeTime) return emitter.dropped();
        const update = new SlidingWindowUpdate(store, fold, differenceMs, record, closeTime, emitter);
        if (record.timestamp < differenceMs) update.runEarly();
        else update.run();
      };
    },
    // A sliding window [s, s + d] is closed once its end is before stream time minus grace.
    emitFrom: (lastEmit) => (lastEmit === -1 ? 0 : Math.max(0, lastEmit - differenceMs)),
    emitTo: (closeTime) => closeTime - differenceMs - 1,
    closesNewWindows: () => true,
  });
  return {
    prefix: "sliding-aggregate",
    operator,
    store: { type: "timestamped_window", windowSizeMs: differenceMs, retentionMs: storeRetention(retentionMs, emitOnClose), companions: emitOnClose ? [emitTimeStore(storeName)] : [] },
    processor,
    table: (table) => ({ ...table, keySerde: { wrap: (inner) => timeWindowedSerde(inner, differenceMs), inner: table.keySerde }, windowCloseMs: graceMs }),
  };
}
