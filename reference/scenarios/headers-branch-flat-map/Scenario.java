import dev.sluice.reference.golden.GoldenScenario;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, String> words = builder.<String, String>stream("input").flatMapValues(value -> List.of(value.split(" ")));
        // Sluice's branch(predicates...) is Kafka Streams 4's split() with a branch per predicate.
        java.util.Map<String, KStream<String, String>> branches = words.split(Named.as("words-"))
            .branch((key, value) -> value.startsWith("a"), Branched.as("a"))
            .branch((key, value) -> true, Branched.as("rest"))
            .noDefaultBranch();
        branches.get("words-a").map((key, value) -> KeyValue.pair(value, key))
            .merge(branches.get("words-rest").selectKey((key, value) -> key + value))
            .peek((key, value) -> { })
            .to("output");
    }
}
