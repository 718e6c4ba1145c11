import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.<String, String>stream("input").mapValues(value -> "1:" + value).to("out1");
        builder.<String, String>stream("input").mapValues(value -> "2:" + value).to("out2");
    }
}
