/** The shapes the DSL's processors are made of, and the rules they share about keys. */
import type { Processor, ProcessorContext, ProcessorSupplier } from "../../../kernel/contracts/streams/processor";
import type { StreamsRecord } from "../processor/record";
import { asInternal, type InternalProcessorContext } from "./internal-context";

/**
 * The DSL's processors receive the runtime's records, whose `with…` methods keep the headers: sources make them, and
 * a forward makes one of what is not.
 */
export type Rec = StreamsRecord<any, any>;

/** A processor whose whole job is `handle(record, context)`. */
export function recordProcessor(handle: (record: Rec, context: ProcessorContext<any, any>) => void): ProcessorSupplier<any, any, any, any> {
  return () => {
    let context!: ProcessorContext<any, any>;
    return {
      init: (ctx) => {
        context = ctx;
      },
      process: (record) => handle(record as Rec, context),
    };
  };
}

export const passThroughProcessor = () => recordProcessor((record, context) => context.forward(record));

/** A processor that sets itself up (finds its stores) once its context is known, and may tear down when closed. */
export function statefulProcessor(
  setUp: (context: InternalProcessorContext) => (record: Rec) => void,
  tearDown?: (context: InternalProcessorContext) => void,
): ProcessorSupplier<any, any, any, any> {
  return () => {
    let handle!: (record: Rec) => void;
    let internal!: InternalProcessorContext;
    return {
      init: (context: ProcessorContext<any, any>) => {
        internal = asInternal(context);
        handle = setUp(internal);
      },
      process: (record) => handle(record as Rec),
      close: tearDown === undefined ? undefined : () => tearDown(internal),
    };
  };
}

/**
 * A processor that keeps part of its store in memory (an index the store cannot answer synchronously): `load` fills
 * it from the store's committed contents once the task's stores are restored, before the first record; `process`
 * keeps it up to date.
 */
export function preparedProcessor(
  setUp: (context: InternalProcessorContext) => { load(): Promise<void>; process(record: Rec): void },
): ProcessorSupplier<any, any, any, any> {
  return () => {
    let handler!: { load(): Promise<void>; process(record: Rec): void };
    return {
      init: (context: ProcessorContext<any, any>) => {
        handler = setUp(asInternal(context));
      },
      process: (record) => handler.process(record as Rec),
      prepare: () => handler.load(),
    } as Processor<any, any, any, any>;
  };
}

/**
 * The stream time one processor has observed (Kafka Streams' observedStreamTime of its window, session and suppress
 * processors): the largest timestamp among the records it received, -1 before the first. Records that went elsewhere
 * in the task (a table updated "now", records filtered out on the way) do not move it. It starts afresh with the
 * processor, as Kafka Streams' does.
 */
export class ObservedStreamTime {
  private time = -1;

  /** Takes in a record's timestamp; returns the stream time observed, that record included. */
  observe(timestamp: number): number {
    if (timestamp > this.time) this.time = timestamp;
    return this.time;
  }
}

/** Null keys cannot be grouped: Kafka Streams drops them, and so do we. */
export function keyed(context: InternalProcessorContext, record: Rec): boolean {
  if (record.key === null || record.key === undefined) {
    context.recordDropped();
    return false;
  }
  return true;
}
