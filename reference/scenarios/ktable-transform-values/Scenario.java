import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.<String, String>table("table")
            .transformValues(() -> new ValueTransformerWithKey<String, String, String>() {
                @Override public void init(org.apache.kafka.streams.processor.ProcessorContext context) {}
                @Override public String transform(String key, String value) { return value == null ? "gone:" + key : key + "=" + value; }
                @Override public void close() {}
            }, Materialized.as("described"))
            .toStream()
            .to("output");
    }
}
