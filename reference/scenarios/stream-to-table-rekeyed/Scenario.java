import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.<String, String>stream("input")
            .selectKey((key, value) -> value.split(":")[0])
            .toTable(Materialized.as("latest"))
            .toStream()
            .to("output");
    }
}
