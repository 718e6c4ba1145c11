import dev.sluice.reference.golden.GoldenScenario;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("kv"), Serdes.String(), Serdes.String()));
        builder.<String, String>stream("input").process(() -> new Processor<String, String, String, String>() {
            private ProcessorContext<String, String> context;
            private KeyValueStore<String, String> store;

            @Override
            public void init(ProcessorContext<String, String> context) {
                this.context = context;
                this.store = context.getStateStore("kv");
            }

            private String walk(KeyValueIterator<String, String> iterator) {
                List<String> seen = new ArrayList<>();
                try (iterator) {
                    while (iterator.hasNext()) {
                        KeyValue<String, String> entry = iterator.next();
                        seen.add(entry.key + "=" + entry.value);
                    }
                }
                return String.join(",", seen);
            }

            @Override
            public void process(Record<String, String> record) {
                switch (record.value()) {
                    case "scan" -> {
                        context.forward(record.withKey("range b..d").withValue(walk(store.range("b", "d"))));
                        context.forward(record.withKey("reverse b..").withValue(walk(store.reverseRange("b", null))));
                        context.forward(record.withKey("range ..bb").withValue(walk(store.range(null, "bb"))));
                        context.forward(record.withKey("prefix b").withValue(walk(store.prefixScan("b", new StringSerializer()))));
                        context.forward(record.withKey("all").withValue(walk(store.all())));
                        context.forward(record.withKey("reverse all").withValue(walk(store.reverseAll())));
                        context.forward(record.withKey("empty d..b").withValue(walk(store.range("d", "b"))));
                        context.forward(record.withKey("count").withValue(String.valueOf(store.approximateNumEntries())));
                    }
                    case "delete" -> store.delete(record.key());
                    case "many" -> store.putAll(List.of(KeyValue.pair(record.key() + "1", "m1"), KeyValue.pair(record.key() + "2", "m2"), KeyValue.pair("a", null)));
                    default -> store.put(record.key(), record.value());
                }
            }
        }, "kv").to("output");
    }
}
