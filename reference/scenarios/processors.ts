/**
 * Processor API processors for scenarios, written as a set-up: `setUp` runs at init with the context (find stores,
 * schedule punctuations there) and returns what handles each record. dev.sluice.reference.golden.Processors is the
 * same for the Kafka Streams side.
 */
import type { ProcessorContext, ProcessorSupplier, StreamRecord } from "sluice";

export function processor<K, V, KOut, VOut>(
  setUp: (context: ProcessorContext<KOut, VOut>) => (record: StreamRecord<K, V>) => void,
): ProcessorSupplier<K, V, KOut, VOut> {
  return () => {
    let handle!: (record: StreamRecord<K, V>) => void;
    return {
      init: (context) => {
        handle = setUp(context);
      },
      process: (record) => handle(record),
    };
  };
}
