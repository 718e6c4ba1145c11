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

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.<String, String>stream("input")
            .processValues(() -> new org.apache.kafka.streams.processor.api.FixedKeyProcessor<String, String, String>() {
                private org.apache.kafka.streams.processor.api.FixedKeyProcessorContext<String, String> context;
                @Override
                public void init(org.apache.kafka.streams.processor.api.FixedKeyProcessorContext<String, String> context) {
                    this.context = context;
                }
                @Override
                public void process(org.apache.kafka.streams.processor.api.FixedKeyRecord<String, String> record) {
                    context.forward(record.withValue(record.value() + "@" + record.timestamp()));
                }
            })
            .to("output");
    }
}
