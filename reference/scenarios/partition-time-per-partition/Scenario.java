import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.processor.TimestampExtractor;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        // A value "?" takes the time of its own partition so far.
        TimestampExtractor extractor = (record, partitionTime) -> "?".equals(record.value()) ? partitionTime : record.timestamp();
        KStream<String, String> left = builder.stream("left", Consumed.<String, String>with(extractor));
        KStream<String, String> right = builder.stream("right", Consumed.<String, String>with(extractor));
        left.merge(right).to("output");
    }
}
