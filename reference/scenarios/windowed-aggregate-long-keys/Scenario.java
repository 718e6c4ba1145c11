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

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.stream("input", Consumed.with(Serdes.Long(), Serdes.Long()))
            .groupByKey()
            .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(20)).advanceBy(Duration.ofMillis(10)))
            .aggregate(() -> 0L, (key, value, sum) -> sum + value,
                Materialized.<Long, Long, org.apache.kafka.streams.state.WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("sums").withKeySerde(Serdes.Long()).withValueSerde(Serdes.Long()))
            .toStream()
            .to("output", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(Long.class, 20), Serdes.Long()));
    }
}
