package dev.sluice.reference.streams;

import dev.sluice.reference.JsonLines;
import dev.sluice.reference.ProgramArguments;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * A Kafka Streams application running one of {@link ReferenceTopologies} until SIGTERM.
 *
 * <p>Arguments: bootstrap-servers application-id state-dir topology [config=value ...]. Prints what
 * {@link StreamsProgram} prints. Reads queries from stdin, one JSON object a line: {"store": name} answers
 * {"event":"store","store":name,"entries":{...}} with every entry of that key-value store; {"store": name,
 * "windowed": true} every entry of that window store, with keys written "key@windowStart".
 */
public final class ReferenceStreamsApp {
    public static void main(String[] args) throws Exception {
        if (args.length < 4) throw new IllegalArgumentException("usage: ReferenceStreamsApp bootstrap-servers application-id state-dir topology [config=value ...]");
        Topology topology = ReferenceTopologies.BY_NAME.get(args[3]).get();
        Properties props = ProgramArguments.withConfigs(StreamsProgram.properties(args[0], args[1], args[2]), args, 4);
        CountDownLatch closed = new CountDownLatch(1);
        KafkaStreams streams = StreamsProgram.start(topology, props, closed);
        try (BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = input.readLine(); line != null; line = input.readLine()) {
                if (line.isBlank()) continue;
                Map<String, Object> query = JsonLines.parse(line);
                String store = (String) query.get("store");
                try {
                    JsonLines.print("event", "store", "store", store, "entries", entries(streams, store, Boolean.TRUE.equals(query.get("windowed"))));
                } catch (Exception e) {
                    JsonLines.print("event", "store", "store", store, "error", JsonLines.error(e));
                }
            }
        }
        closed.await();
    }

    private static Map<String, Object> entries(KafkaStreams streams, String store, boolean windowed) {
        Map<String, Object> entries = new TreeMap<>();
        if (windowed) {
            ReadOnlyWindowStore<String, Object> windows = streams.store(StoreQueryParameters.fromNameAndType(store, QueryableStoreTypes.windowStore()));
            try (KeyValueIterator<Windowed<String>, Object> all = windows.all()) {
                all.forEachRemaining(entry -> entries.put(entry.key.key() + "@" + entry.key.window().start(), entry.value));
            }
        } else {
            ReadOnlyKeyValueStore<String, Object> keyValues = streams.store(StoreQueryParameters.fromNameAndType(store, QueryableStoreTypes.keyValueStore()));
            try (KeyValueIterator<String, Object> all = keyValues.all()) {
                all.forEachRemaining((KeyValue<String, Object> entry) -> entries.put(entry.key, entry.value));
            }
        }
        return entries;
    }
}
