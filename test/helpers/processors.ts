/** A Processor API processor whose whole job is `handle(record, context)`, for tests. */
import type { ProcessorContext, ProcessorSupplier, Record } from "../../kernel/contracts/streams/processor";
import type { KeyValueStore } from "../../kernel/contracts/streams/stores";

export function processorOf<KIn, VIn, KOut, VOut>(handle: (record: Record<KIn, VIn>, context: ProcessorContext<KOut, VOut>) => void): ProcessorSupplier<KIn, VIn, KOut, VOut> {
  return () => {
    let context!: ProcessorContext<KOut, VOut>;
    return {
      init: (given) => void (context = given),
      process: (record) => handle(record, context),
    };
  };
}

/** Counts each key's records in the key-value store `storeName` and forwards "<key>=<count>". */
export function keyCounter(storeName: string): ProcessorSupplier<string, string, string, string> {
  return processorOf<string, string, string, string>((record, context) => {
    const store = context.getStateStore<KeyValueStore<string, number>>(storeName);
    const count = (store.get(record.key) ?? 0) + 1;
    store.put(record.key, count);
    context.forward(record.withValue(`${record.key}=${count}`));
  });
}
