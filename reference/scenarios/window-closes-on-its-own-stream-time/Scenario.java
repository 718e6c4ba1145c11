import dev.sluice.reference.golden.GoldenScenario;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> settings = builder.table("settings");
        builder.<String, String>stream("events")
            .join(settings, (event, setting) -> setting + ":" + event)
            .groupByKey()
            .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ZERO))
            .count(Materialized.<String, Long, org.apache.kafka.streams.state.WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("counts").withRetention(Duration.ofMillis(1000)))
            .toStream((windowed, count) -> windowed.key() + "@" + windowed.window().start())
            .to("output", Produced.with(Serdes.String(), Serdes.Long()));
    }
}
