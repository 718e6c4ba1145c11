import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.streams.StreamsBuilder;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.<String, String>stream("input").mapValues(value -> value.toUpperCase()).to("output");
    }
}
