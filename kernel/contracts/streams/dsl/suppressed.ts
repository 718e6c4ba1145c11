/**
 * Suppression of a table's updates (Kafka Streams' Suppressed and BufferConfig): `KTable.suppress` holds each key's
 * latest update in a buffer (changelogged and restored like a store) and forwards it later — when its window closes,
 * or once a time limit passed — so that downstream sees one result instead of every update.
 */

/**
 * How big the buffer may grow and what happens when it would grow past that: emit the oldest entries early
 * (`emit_early`, Kafka Streams' EagerBufferConfig) or stop the application (`shut_down`, StrictBufferConfig). No
 * bound: unbounded. Bytes count what Kafka Streams counts: each entry's buffer time, key, value and record context.
 */
export interface BufferConfig {
  readonly maxRecords?: number;
  readonly maxBytes?: number;
  readonly whenFull: "emit_early" | "shut_down";
}

/**
 * `until_window_closes`: a windowed table's final result per window, once stream time passes the window's end plus
 * grace (a session's: its end plus gap plus grace); tombstones are dropped, and the buffer must never emit early.
 * `until_time_limit`: a key's latest update, `timeLimitMs` of stream time after its first update since the last
 * emit. `name` names the buffer's store (`<name>-store`).
 */
export type Suppressed =
  | { readonly type: "until_window_closes"; readonly bufferConfig: BufferConfig; readonly name?: string }
  | { readonly type: "until_time_limit"; readonly timeLimitMs: number; readonly bufferConfig: BufferConfig; readonly name?: string };
