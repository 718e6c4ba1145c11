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
        builder.<String, String>stream("input").process(() -> new Processor<String, String, String, String>() {
            private ProcessorContext<String, String> context;

            @Override
            public void init(ProcessorContext<String, String> context) {
                this.context = context;
            }

            @Override
            public void process(Record<String, String> record) {
                List<String> traces = new ArrayList<>();
                for (Header header : record.headers().headers("trace")) traces.add(header.value() == null ? "null" : new String(header.value(), StandardCharsets.UTF_8));
                Header last = record.headers().lastHeader("trace");
                String summary = String.join("+", traces) + "/" + (last == null ? "none" : last.value() == null ? "null" : new String(last.value(), StandardCharsets.UTF_8)) + "/" + record.headers().toArray().length;
                switch (record.value()) {
                    case "plain" -> context.forward(new Record<>(record.key(), summary, record.timestamp()));
                    case "replace" -> context.forward(record.withValue(summary).withHeaders(new RecordHeaders().add("replaced", "yes".getBytes(StandardCharsets.UTF_8))));
                    default -> {
                        Record<String, String> out = record.withValue(summary);
                        out.headers().remove("drop").add("seen", record.key().getBytes(StandardCharsets.UTF_8)).add("nothing", null);
                        context.forward(out);
                        // the received record's headers are its own: the change above does not reach it
                        context.forward(record.withKey(record.key() + "-original"));
                    }
                }
            }
        }).to("output");
    }
}
