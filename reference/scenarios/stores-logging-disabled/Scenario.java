import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.Processors;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, String> input = builder.<String, String>stream("input");
        input.groupByKey()
            .count(Materialized.<String, Long, KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("counts").withLoggingDisabled())
            .toStream()
            .to("counts-out", Produced.with(Serdes.String(), Serdes.Long()));
        input.groupByKey()
            .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
            .count(Materialized.<String, Long, WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("windowed").withLoggingDisabled().withCachingDisabled());
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("seen"), Serdes.String(), Serdes.Long()).withLoggingDisabled());
        input.process(Processors.<String, String, String, String>processor(context -> {
                KeyValueStore<String, Long> seen = context.getStateStore("seen");
                return record -> {
                    Long before = seen.get(record.key());
                    long count = (before == null ? 0 : before) + 1;
                    seen.put(record.key(), count);
                    context.forward(record.withValue(record.key() + "=" + count));
                };
            }), "seen")
            .to("seen-out");
    }
}
