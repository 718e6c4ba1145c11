/** What the engine's processor context offers the DSL's own processors beyond the public API. */
import type { ProcessorContext } from "../../../kernel/contracts/streams/processor";

export interface InternalProcessorContext<K = unknown, V = unknown> extends ProcessorContext<K, V> {
  /** Counts a record the operator drops on purpose (late for its window, null key). */
  recordDropped(): void;
}

export function asInternal(context: ProcessorContext<any, any>): InternalProcessorContext<any, any> {
  return context as InternalProcessorContext<any, any>;
}
