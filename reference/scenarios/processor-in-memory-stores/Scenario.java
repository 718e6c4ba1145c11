import dev.sluice.reference.golden.GoldenScenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("kv"), Serdes.String(), Serdes.String()));
        builder.addStateStore(Stores.windowStoreBuilder(Stores.inMemoryWindowStore("windows", Duration.ofMillis(1000), Duration.ofMillis(10), false), Serdes.String(), Serdes.String()).withCachingEnabled());
        builder.addStateStore(Stores.sessionStoreBuilder(Stores.inMemorySessionStore("sessions", Duration.ofMillis(1000)), Serdes.String(), Serdes.String()));
        builder.<String, String>stream("input").process(() -> new Processor<String, String, String, String>() {
            private ProcessorContext<String, String> context;
            private KeyValueStore<String, String> kv;
            private WindowStore<String, String> windows;
            private SessionStore<String, String> sessions;

            @Override
            public void init(ProcessorContext<String, String> context) {
                this.context = context;
                this.kv = context.getStateStore("kv");
                this.windows = context.getStateStore("windows");
                this.sessions = context.getStateStore("sessions");
            }

            @Override
            public void process(Record<String, String> record) {
                String key = record.key();
                long time = record.timestamp();
                kv.put(key, record.value());
                windows.put(key, record.value(), time);
                sessions.put(new Windowed<>(key, new SessionWindow(time - 5, time)), record.value());
                List<String> seen = new ArrayList<>();
                try (KeyValueIterator<String, String> all = kv.all()) {
                    all.forEachRemaining(entry -> seen.add(entry.key + "=" + entry.value));
                }
                try (WindowStoreIterator<String> fetched = windows.fetch(key, 0, 100)) {
                    fetched.forEachRemaining(entry -> seen.add(key + "@" + entry.key + "=" + entry.value));
                }
                try (KeyValueIterator<Windowed<String>, String> found = sessions.fetch(key)) {
                    found.forEachRemaining(entry -> seen.add(key + "[" + entry.key.window().start() + "," + entry.key.window().end() + "]=" + entry.value));
                }
                context.forward(record.withValue(String.join(" ", seen)));
            }
        }, "kv", "windows", "sessions").to("output");
    }
}
