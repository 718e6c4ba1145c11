import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.Processors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.addGlobalStore(
            Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore("totals"), Serdes.String(), Serdes.Long()).withLoggingDisabled(),
            "amounts",
            Consumed.with(Serdes.String(), Serdes.Long()),
            Processors.<String, Long, Void, Void>processor(context -> {
                TimestampedKeyValueStore<String, Long> totals = context.getStateStore("totals");
                return record -> {
                    if (record.key() == null || record.value() == null) return;
                    ValueAndTimestamp<Long> before = totals.get(record.key());
                    long sum = (before == null ? 0L : before.value()) + record.value();
                    totals.put(record.key(), ValueAndTimestamp.make(sum, Math.max(record.timestamp(), before == null ? 0L : before.timestamp())));
                };
            }));
        builder.<String, String>stream("asks")
            .process(Processors.<String, String, String, String>processor(context -> {
                TimestampedKeyValueStore<String, Long> totals = context.getStateStore("totals");
                return record -> {
                    StringBuilder listed = new StringBuilder();
                    try (KeyValueIterator<String, ValueAndTimestamp<Long>> all = totals.all()) {
                        while (all.hasNext()) {
                            KeyValue<String, ValueAndTimestamp<Long>> entry = all.next();
                            listed.append(entry.key).append('=').append(entry.value.value()).append('@').append(entry.value.timestamp()).append(' ');
                        }
                    }
                    context.forward(record.withValue(listed.toString().trim()));
                };
            }))
            .to("listing");
    }
}
