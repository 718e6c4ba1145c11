/**
 * Windows (Kafka Streams' TimeWindows, SlidingWindows, SessionWindows), when a windowed aggregation emits
 * (EmitStrategy), and the key of a windowed aggregate (Windowed). Times are milliseconds. A topology may write these
 * as plain objects or make them with the factories "sluice" exports under Kafka Streams' names
 * (`TimeWindows.ofSizeAndGrace(10_000, 2_000).advanceBy(5_000)`); either way they are checked when the topology is
 * built, with Kafka Streams' rules.
 */

/** The key of a windowed aggregate. */
export interface Windowed<K> {
  key: K;
  windowStart: number;
  windowEnd: number;
}

/**
 * Event-time windows of a fixed size, aligned to the epoch: tumbling (each record in one window) or hopping (a new
 * window every `advanceMs`, 0 < advanceMs <= sizeMs). `graceMs` (default 0) admits records that arrive late by at
 * most that much after their window's end.
 */
export type TimeWindows =
  | { type: "tumbling"; sizeMs: number; graceMs?: number }
  | { type: "hopping"; sizeMs: number; advanceMs: number; graceMs?: number };

/**
 * Sliding windows (Kafka Streams' SlidingWindows): windows of `timeDifferenceMs`, inclusive at both ends, that exist
 * where records are — each record's window ends at it, and a window starts just after each record — so two records
 * are in a window together when at most `timeDifferenceMs` apart.
 */
export interface SlidingWindows {
  type: "sliding";
  timeDifferenceMs: number;
  graceMs?: number;
}

/** Session windows: a key's records closer than `gapMs` make one session. */
export interface SessionWindows {
  type: "session";
  gapMs: number;
  graceMs?: number;
}

/**
 * When a windowed aggregation forwards (Kafka Streams' EmitStrategy): every update (the default), or each window
 * once, when it closes (its end plus grace passed by stream time), from a store it lists windows in time order.
 */
export interface EmitStrategy {
  type: "on_window_update" | "on_window_close";
}
