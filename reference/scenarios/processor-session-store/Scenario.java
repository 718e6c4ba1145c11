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
        builder.addStateStore(Stores.sessionStoreBuilder(Stores.persistentSessionStore("sessions", Duration.ofMillis(1000)), Serdes.String(), Serdes.String()));
        builder.<String, String>stream("input")
            .process(Processors.<String, String, String, String>processor(context -> {
                SessionStore<String, String> store = context.getStateStore("sessions");
                return record -> {
                    String[] command = record.value().split(":");
                    long first = Long.parseLong(command[1]);
                    long second = Long.parseLong(command[2]);
                    Windowed<String> session = new Windowed<>(record.key(), new org.apache.kafka.streams.kstream.internals.SessionWindow(first, second));
                    String answer;
                    switch (command[0]) {
                        case "put" -> {
                            store.put(session, command[3]);
                            answer = "put";
                        }
                        case "remove" -> {
                            store.remove(session);
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
                };
            }), "sessions")
            .to("output");
    }
}
