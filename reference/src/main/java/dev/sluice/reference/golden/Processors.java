package dev.sluice.reference.golden;

import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Processor API processors for scenarios without the class around them: {@code setUp} runs at init with the context
 * (find stores, schedule punctuations there) and returns what handles each record. reference/scenarios/processors.ts
 * is the same for the Sluice side.
 */
public final class Processors {
    private Processors() {}

    public static <K, V, KOut, VOut> ProcessorSupplier<K, V, KOut, VOut> processor(
            Function<ProcessorContext<KOut, VOut>, Consumer<Record<K, V>>> setUp) {
        return () -> new Processor<>() {
            private Consumer<Record<K, V>> handle;

            @Override
            public void init(ProcessorContext<KOut, VOut> context) {
                handle = setUp.apply(context);
            }

            @Override
            public void process(Record<K, V> record) {
                handle.accept(record);
            }
        };
    }
}
