import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import dev.sluice.reference.golden.Processors;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore("windows", Duration.ofMillis(1000), Duration.ofMillis(10), false), Serdes.String(), Serdes.String()));
        builder.<String, String>stream("input")
            .process(Processors.<String, String, String, String>processor(context -> {
                WindowStore<String, String> store = context.getStateStore("windows");
                return record -> {
                    long start = record.timestamp() - record.timestamp() % 10;
                    String before = store.fetch(record.key(), start);
                    store.put(record.key(), before == null ? record.value() : before + record.value(), start);
                    List<String> seen = new ArrayList<>();
                    try (WindowStoreIterator<String> range = store.fetch(record.key(), 0L, record.timestamp())) {
                        range.forEachRemaining(entry -> seen.add(entry.key + "=" + entry.value));
                    }
                    context.forward(record.withValue(String.join(",", seen)));
                };
            }), "windows")
            .to("output");
    }
}
