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
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("kv"), Serdes.String(), Serdes.String()));
        builder.<String, String>stream("input")
            .process(Processors.<String, String, String, String>processor(context -> {
                KeyValueStore<String, String> store = context.getStateStore("kv");
                return record -> {
                    String[] command = record.value().split(":");
                    String answer = switch (command[0]) {
                        case "get" -> "got " + store.get(record.key());
                        case "put" -> { store.put(record.key(), command[1]); yield "put"; }
                        case "putIfAbsent" -> "was " + store.putIfAbsent(record.key(), command[1]);
                        case "delete" -> "deleted " + store.delete(record.key());
                        case "put-null" -> { store.put(record.key(), null); yield "put null"; }
                        default -> throw new IllegalArgumentException(record.value());
                    };
                    context.forward(record.withValue(answer));
                };
            }), "kv")
            .to("output");
    }
}
