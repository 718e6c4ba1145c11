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
        builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore("windows", Duration.ofMillis(30), Duration.ofMillis(10), false), Serdes.String(), Serdes.String()));
        builder.<String, String>stream("input")
            .process(Processors.<String, String, String, String>processor(context -> {
                WindowStore<String, String> store = context.getStateStore("windows");
                return record -> {
                    String[] command = record.value().split(":");
                    long time = Long.parseLong(command[1]);
                    String answer;
                    switch (command[0]) {
                        case "put" -> {
                            store.put(record.key(), command[2], time);
                            answer = "put";
                        }
                        case "fetch" -> answer = "fetched " + store.fetch(record.key(), time);
                        case "range" -> {
                            List<String> seen = new ArrayList<>();
                            try (WindowStoreIterator<String> range = store.fetch(record.key(), time, Long.parseLong(command[2]))) {
                                range.forEachRemaining(entry -> seen.add(entry.key + "=" + entry.value));
                            }
                            answer = "range " + String.join(",", seen);
                        }
                        default -> throw new IllegalArgumentException(record.value());
                    }
                    context.forward(record.withValue(answer));
                };
            }), "windows")
            .to("output");
    }
}
