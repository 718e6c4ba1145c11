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
        builder.addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore("latest"), Serdes.String(), Serdes.String()));
        builder.<String, String>stream("input")
            .process(Processors.<String, String, String, String>processor(context -> {
                TimestampedKeyValueStore<String, String> store = context.getStateStore("latest");
                return record -> {
                    ValueAndTimestamp<String> previous = store.get(record.key());
                    store.put(record.key(), ValueAndTimestamp.make(record.value(), record.timestamp()));
                    context.forward(record.withValue(previous == null ? "first" : previous.value() + "@" + previous.timestamp()));
                };
            }), "latest")
            .to("output");
    }
}
