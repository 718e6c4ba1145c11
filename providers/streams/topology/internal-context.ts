/** What the engine's processor context offers the DSL's own processors beyond the public API. */
import type { Header, ProcessorContext } from "../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { SerdeSpec } from "../serdes/serde-resolver";
import type { ReadOnlyStore, StoreSpec } from "../../../kernel/contracts/streams/stores";

export interface InternalProcessorContext<K = unknown, V = unknown> extends ProcessorContext<K, V> {
  /** Counts a record the operator drops on purpose (late for its window, null key). */
  recordDropped(): void;
  /**
   * Whether the processor's forwards may wait for its store's record cache to flush them: not when a repartition
   * topic is downstream, whose records must leave in input order to be recognized when sent again after a crash.
   */
  forwardsMayWait(): boolean;
  /** The serde the DSL names with `spec` (undefined: the application's default for a key or a value). */
  serdeOf(spec: SerdeSpec, role: "key" | "value"): Serde<any>;
  /** A connected store's committed contents, to load from in `prepare` (see processor-shapes' preparedProcessor). */
  committedStore(name: string): ReadOnlyStore;
  /** A store as declared, its serdes resolved. */
  storeSpec(name: string): StoreSpec;
  /**
   * Least wall-clock time between two looks for closed windows, by an emit-on-close window aggregation or a
   * stream-stream left or outer join (see TaskEnvironment).
   */
  windowEmitIntervalMs(): number;
}

/**
 * A processor-facing store with a record cache: it forwards each update the cache flushes, when it has one, with the
 * value it replaced when asked.
 */
export interface FlushForwarding {
  forwardOnFlush(
    listener: (key: unknown, value: unknown, timestamp: number, headers: readonly Header[] | undefined, oldValue: unknown) => void,
    withOldValues: boolean,
  ): boolean;
}

export function asInternal(context: ProcessorContext<any, any>): InternalProcessorContext<any, any> {
  return context as InternalProcessorContext<any, any>;
}
