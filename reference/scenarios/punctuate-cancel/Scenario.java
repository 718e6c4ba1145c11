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
                int[] ticks = new int[2];
                org.apache.kafka.streams.processor.Cancellable[] punctuators = new org.apache.kafka.streams.processor.Cancellable[2];
                punctuators[0] = context.schedule(Duration.ofMillis(10), PunctuationType.STREAM_TIME, time -> {
                    context.forward(new Record<>("tick", "stream " + time, time));
                    if (++ticks[0] == 2) punctuators[0].cancel();
                });
                punctuators[1] = context.schedule(Duration.ofMillis(10), PunctuationType.WALL_CLOCK_TIME, time -> {
                    context.forward(new Record<>("tick", "wall " + time, time));
                    if (++ticks[1] == 1) punctuators[1].cancel();
                });
                return context::forward;
            }))
            .to("output");
    }
}
