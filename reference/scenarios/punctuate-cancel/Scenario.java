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
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.<String, String>stream("input").process(() -> new Processor<String, String, String, String>() {
            private ProcessorContext<String, String> context;
            private int streamTicks;
            private int wallTicks;
            private org.apache.kafka.streams.processor.Cancellable streamPunctuator;
            private org.apache.kafka.streams.processor.Cancellable wallPunctuator;

            @Override
            public void init(ProcessorContext<String, String> context) {
                this.context = context;
                streamPunctuator = context.schedule(Duration.ofMillis(10), PunctuationType.STREAM_TIME, time -> {
                    context.forward(new Record<>("tick", "stream " + time, time));
                    if (++streamTicks == 2) streamPunctuator.cancel();
                });
                wallPunctuator = context.schedule(Duration.ofMillis(10), PunctuationType.WALL_CLOCK_TIME, time -> {
                    context.forward(new Record<>("tick", "wall " + time, time));
                    if (++wallTicks == 1) wallPunctuator.cancel();
                });
            }

            @Override
            public void process(Record<String, String> record) {
                context.forward(record);
            }
        }).to("output");
    }
}
