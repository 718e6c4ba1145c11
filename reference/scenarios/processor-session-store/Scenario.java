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
        builder.addStateStore(Stores.sessionStoreBuilder(Stores.persistentSessionStore("sessions", Duration.ofMillis(1000)), Serdes.String(), Serdes.String()));
        builder.<String, String>stream("input").process(() -> new Processor<String, String, String, String>() {
            private ProcessorContext<String, String> context;
            private SessionStore<String, String> store;

            @Override
            public void init(ProcessorContext<String, String> context) {
                this.context = context;
                store = context.getStateStore("sessions");
            }

            @Override
            public void process(Record<String, String> record) {
                String[] command = record.value().split(":");
                long first = Long.parseLong(command[1]);
                long second = Long.parseLong(command[2]);
                String answer;
                switch (command[0]) {
                    case "put" -> {
                        store.put(new Windowed<>(record.key(), new org.apache.kafka.streams.kstream.internals.SessionWindow(first, second)), command[3]);
                        answer = "put";
                    }
                    case "remove" -> {
                        store.remove(new Windowed<>(record.key(), new org.apache.kafka.streams.kstream.internals.SessionWindow(first, second)));
                        answer = "removed";
                    }
                    case "fetch" -> answer = "fetched " + store.fetchSession(record.key(), first, second);
                    case "find" -> {
                        List<String> found = new ArrayList<>();
                        try (KeyValueIterator<Windowed<String>, String> sessions = store.findSessions(record.key(), first, second)) {
                            sessions.forEachRemaining(s -> found.add("[" + s.key.window().start() + "," + s.key.window().end() + "]=" + s.value));
                        }
                        answer = "found " + String.join(",", found);
                    }
                    default -> throw new IllegalArgumentException(record.value());
                }
                context.forward(record.withValue(answer));
            }
        }, "sessions").to("output");
    }
}
