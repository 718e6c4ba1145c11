import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.<String, String>table("table", Materialized.as("rows"))
            .mapValues(value -> value.toUpperCase(), Materialized.as("upper"))
            .groupBy((key, value) -> KeyValue.pair(value, key))
            .count(Materialized.as("per-value"))
            .toStream()
            .to("output", Produced.with(Serdes.String(), Serdes.Long()));
    }
}
