import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        // "<time>:<payload>" carries its event time; "same:<payload>" takes the partition time; a negative time drops the record.
        builder.stream("input", Consumed.with(Serdes.String(), Serdes.String()).withTimestampExtractor((record, partitionTime) -> {
                String time = ((String) record.value()).split(":")[0];
                return time.equals("same") ? partitionTime : Long.parseLong(time);
            }))
            .process(() -> new Processor<String, String, String, String>() {
                private ProcessorContext<String, String> context;

                @Override
                public void init(ProcessorContext<String, String> context) {
                    this.context = context;
                }

                @Override
                public void process(Record<String, String> record) {
                    context.forward(record.withValue(record.value() + "@" + context.currentStreamTimeMs()));
                }
            })
            .to("output");
    }
}
