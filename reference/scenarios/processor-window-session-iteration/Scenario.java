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
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore("windows", Duration.ofMillis(1000), Duration.ofMillis(10), false), Serdes.String(), Serdes.String()));
        builder.addStateStore(Stores.sessionStoreBuilder(Stores.persistentSessionStore("sessions", Duration.ofMillis(1000)), Serdes.String(), Serdes.String()));
        builder.<String, String>stream("input").process(() -> new Processor<String, String, String, String>() {
            private ProcessorContext<String, String> context;
            private WindowStore<String, String> windows;
            private SessionStore<String, String> sessions;

            @Override
            public void init(ProcessorContext<String, String> context) {
                this.context = context;
                this.windows = context.getStateStore("windows");
                this.sessions = context.getStateStore("sessions");
            }

            private String starts(WindowStoreIterator<String> iterator) {
                List<String> seen = new ArrayList<>();
                try (iterator) {
                    while (iterator.hasNext()) {
                        KeyValue<Long, String> entry = iterator.next();
                        seen.add(entry.key + "=" + entry.value);
                    }
                }
                return String.join(",", seen);
            }

            private String walk(KeyValueIterator<Windowed<String>, String> iterator) {
                List<String> seen = new ArrayList<>();
                try (iterator) {
                    while (iterator.hasNext()) {
                        KeyValue<Windowed<String>, String> entry = iterator.next();
                        seen.add(entry.key.key() + "@" + entry.key.window().start() + "-" + entry.key.window().end() + "=" + entry.value);
                    }
                }
                return String.join(",", seen);
            }

            private void forward(Record<String, String> record, String what, String value) {
                context.forward(record.withKey(what).withValue(value));
            }

            @Override
            public void process(Record<String, String> record) {
                String value = record.value();
                long time = record.timestamp();
                if (value.equals("scan")) {
                    forward(record, "fetch a 0..20", starts(windows.fetch("a", 0, 20)));
                    forward(record, "backwardFetch a 0..20", starts(windows.backwardFetch("a", 0, 20)));
                    forward(record, "fetch a..b 0..100", walk(windows.fetch("a", "b", 0, 100)));
                    forward(record, "backwardFetch ..b 0..100", walk(windows.backwardFetch(null, "b", 0, 100)));
                    forward(record, "fetch b.. 10..20", walk(windows.fetch("b", null, 10, 20)));
                    forward(record, "fetchAll 10..20", walk(windows.fetchAll(10, 20)));
                    forward(record, "backwardFetchAll 10..20", walk(windows.backwardFetchAll(10, 20)));
                    forward(record, "all", walk(windows.all()));
                    forward(record, "backwardAll", walk(windows.backwardAll()));
                    forward(record, "findSessions a 0..100", walk(sessions.findSessions("a", 0, 100)));
                    forward(record, "backwardFindSessions a 0..100", walk(sessions.backwardFindSessions("a", 0, 100)));
                    forward(record, "findSessions a..b 15..30", walk(sessions.findSessions("a", "b", 15, 30)));
                    forward(record, "backwardFindSessions a..c 0..100", walk(sessions.backwardFindSessions("a", "c", 0, 100)));
                    forward(record, "session fetch a", walk(sessions.fetch("a")));
                    forward(record, "session backwardFetch a", walk(sessions.backwardFetch("a")));
                    forward(record, "session fetch b..c", walk(sessions.fetch("b", "c")));
                    forward(record, "session backwardFetch b..c", walk(sessions.backwardFetch("b", "c")));
                } else if (value.equals("wdel")) {
                    windows.put(record.key(), null, time);
                } else if (value.startsWith("s")) {
                    long start = Long.parseLong(value.substring(1));
                    sessions.put(new Windowed<>(record.key(), new SessionWindow(start, time)), value + "-" + time);
                } else {
                    windows.put(record.key(), value, time);
                }
            }
        }, "windows", "sessions").to("output");
    }
}
