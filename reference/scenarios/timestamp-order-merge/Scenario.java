import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, String> left = builder.<String, String>stream("left").mapValues(value -> "L:" + value);
        KStream<String, String> right = builder.<String, String>stream("right").mapValues(value -> "R:" + value);
        left.merge(right).to("output");
    }
}
