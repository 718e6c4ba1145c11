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
        builder.<String, String>stream("input")
            .flatMap((key, value) -> {
                List<KeyValue<String, String>> words = new ArrayList<>();
                for (String word : value.split(" ")) words.add(KeyValue.pair(word, key));
                return words;
            })
            .groupByKey()
            .count(Materialized.as("counts"))
            .toStream()
            .to("output", Produced.with(Serdes.String(), Serdes.Long()));
    }
}
