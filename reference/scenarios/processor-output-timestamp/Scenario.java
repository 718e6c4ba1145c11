import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import dev.sluice.reference.golden.Processors;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, String> shifted = builder.<String, String>stream("input")
            .process(Processors.<String, String, String, String>processor(context -> {
                return record -> context.forward(record.withKey(record.value()).withTimestamp(record.timestamp() + 1000));
            }));
        shifted.to("output");
        shifted.groupByKey().count(Materialized.as("counts")).toStream().to("counts", Produced.with(Serdes.String(), Serdes.Long()));
    }
}
