/** Windows (Kafka Streams' TimeWindows, SessionWindows) and the key of a windowed aggregate (Windowed). */

/** The key of a windowed aggregate. */
export interface Windowed<K> {
  key: K;
  windowStart: number;
  windowEnd: number;
}

/** Event-time windows; `graceMs` (default 0) admits records that arrive late by at most that much. */
export type TimeWindows =
  | { type: "tumbling"; sizeMs: number; graceMs?: number }
  | { type: "hopping"; sizeMs: number; advanceMs: number; graceMs?: number };

export interface SessionWindows {
  type: "session";
  gapMs: number;
  graceMs?: number;
}
