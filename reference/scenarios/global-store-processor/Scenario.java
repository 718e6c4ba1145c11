import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.Processors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.addGlobalStore(
            Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("names"), Serdes.String(), Serdes.String()).withLoggingDisabled(),
            "customers",
            Consumed.with(Serdes.String(), Serdes.String()),
            Processors.<String, String, Void, Void>processor(context -> {
                KeyValueStore<String, String> names = context.getStateStore("names");
                return record -> {
                    String key = record.key() == null ? "(no key)" : record.key();
                    if (record.value() == null) names.delete(key);
                    else names.put(key, record.value().toUpperCase() + "@" + context.recordMetadata().get().offset());
                };
            }));
        builder.<String, String>stream("orders")
            .process(Processors.<String, String, String, String>processor(context -> {
                KeyValueStore<String, String> names = context.getStateStore("names");
                return record -> context.forward(record.withValue(names.get(record.value()) + ":" + record.key()));
            }))
            .to("out");
    }
}
