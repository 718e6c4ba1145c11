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
        builder.<String, String>stream("input")
            .process(Processors.<String, String, String, String>processor(context -> {
                context.schedule(Duration.ofMillis(10), PunctuationType.STREAM_TIME, time -> context.forward(new Record<>("tick", "stream " + time, time)));
                return context::forward;
            }))
            .to("output");
    }
}
