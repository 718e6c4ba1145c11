import dev.sluice.reference.golden.GoldenScenario;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KGroupedStream<String, String> clicks = builder.<String, String>stream("clicks").groupByKey();
        KGroupedStream<String, String> views = builder.<String, String>stream("views").groupByKey();
        clicks.<String>cogroup((key, value, aggregate) -> aggregate + "C" + value)
            .cogroup(views, (key, value, aggregate) -> aggregate + "V" + value)
            .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
            .aggregate(() -> "", Materialized.as("activity"))
            .toStream()
            .to("output", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.String()));
    }
}
