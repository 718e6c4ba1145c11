/** What the engine's processor context offers the DSL's own processors beyond the public API. */
import type { Header, ProcessorContext } from "../../../kernel/contracts/streams/processor";

export interface InternalProcessorContext<K = unknown, V = unknown> extends ProcessorContext<K, V> {
  /** Counts a record the operator drops on purpose (late for its window, null key). */
  recordDropped(): void;
  /**
   * Whether the processor's forwards may wait for its store's record cache to flush them: not when a repartition
   * topic is downstream, whose records must leave in input order to be recognized when sent again after a crash.
   */
  forwardsMayWait(): boolean;
  /**
   * How often, in wall-clock ms, an operator that emits what a closed window leaves (a stream-stream left or outer
   * join) looks for it: Kafka Streams' 1000, or 0 (every record) in the test drivers, as in Kafka Streams' own.
   */
  emitIntervalMs(): number;
}

/** A processor-facing store with a record cache: it forwards each update the cache flushes, when it has one. */
export interface FlushForwarding {
  forwardOnFlush(listener: (key: unknown, value: unknown, timestamp: number, headers: readonly Header[] | undefined) => void): boolean;
}

export function asInternal(context: ProcessorContext<any, any>): InternalProcessorContext<any, any> {
  return context as InternalProcessorContext<any, any>;
}
