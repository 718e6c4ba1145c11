import dev.sluice.reference.golden.GoldenScenario;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.<String, String>stream("input")
            .flatMapValues(value -> Arrays.asList(value.split(" ")))
            .groupByKey()
            .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(20)))
            .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("counts").withCachingDisabled().withLoggingEnabled(Map.of("min.compaction.lag.ms", "5000")))
            .toStream()
            .to("output", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
    }
}
