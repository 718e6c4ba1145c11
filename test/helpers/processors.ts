/** A Processor API processor whose whole job is `handle(record, context)`, for tests. */
import type { ProcessorContext, ProcessorSupplier, Record } from "../../kernel/contracts/streams/processor";

export function processorOf<KIn, VIn, KOut, VOut>(handle: (record: Record<KIn, VIn>, context: ProcessorContext<KOut, VOut>) => void): ProcessorSupplier<KIn, VIn, KOut, VOut> {
  return () => {
    let context!: ProcessorContext<KOut, VOut>;
    return {
      init: (given) => void (context = given),
      process: (record) => handle(record, context),
    };
  };
}
