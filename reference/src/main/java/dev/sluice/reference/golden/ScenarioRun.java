package dev.sluice.reference.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlySessionStore;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.TimestampedWindowStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Runs one scenario in Kafka Streams' TopologyTestDriver and collects its golden: every record written to a
 * non-internal topic, tagged with the action that caused it, each store read the script asks for, and the final
 * contents of every store the scenario named.
 */
final class ScenarioRun {
    static final String APPLICATION_ID = "golden";
    /**
     * Names Kafka Streams makes up for stores the topology did not name (KSTREAM-AGGREGATE-STATE-STORE-0000000001,
     * KSTREAM-JOINTHIS-0000000004-store): its ten-digit node counter. Not comparable with Sluice's.
     */
    private static final Pattern GENERATED_STORE = Pattern.compile(".*\\d{10}.*");

    private final ScenarioScript script;
    private final GoldenScenario scenario;
    final List<ObjectNode> outputs = new ArrayList<>();
    final List<ObjectNode> storeReads = new ArrayList<>();
    final Map<String, List<ObjectNode>> stores = new TreeMap<>();

    ScenarioRun(ScenarioScript script, GoldenScenario scenario) {
        this.script = script;
        this.scenario = scenario;
    }

    /** What both sides agree on unless the script says otherwise: string serdes, no record cache. */
    static Properties baseline(String stateDir) {
        Properties props = new Properties();
        props.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.setProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.setProperty(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        props.setProperty(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        props.setProperty(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        props.setProperty(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        return props;
    }

    void run(String stateDir) {
        Properties props = baseline(stateDir);
        props.putAll(script.config);
        StreamsBuilder builder = new StreamsBuilder();
        scenario.build(builder);
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(props), props, Instant.ofEpochMilli(script.wallClockStart))) {
            for (int at = 0; at < script.actions.size(); at++) {
                ScenarioScript.Action action = script.actions.get(at);
                if (action instanceof ScenarioScript.Pipe pipe) pipe(driver, pipe);
                else if (action instanceof ScenarioScript.Advance advance) driver.advanceWallClockTime(Duration.ofMillis(advance.ms()));
                else if (action instanceof ScenarioScript.Read read) storeReads.add(storeRead(at, read.store(), dump(driver, read.store())));
                collectOutputs(driver, at);
            }
            for (Map.Entry<String, StateStore> store : new TreeMap<>(driver.getAllStateStores()).entrySet()) {
                // A versioned store has no range to list: its scenarios show it through their outputs.
                if (GENERATED_STORE.matcher(store.getKey()).matches() || store.getValue() instanceof VersionedKeyValueStore) continue;
                if (script.storesLeftOut.containsKey(store.getKey())) continue;
                stores.put(store.getKey(), dump(driver, store.getKey()));
            }
        }
    }

    private void pipe(TopologyTestDriver driver, ScenarioScript.Pipe pipe) {
        ScenarioScript.Topic topic = script.topic(pipe.topic());
        Headers headers = new RecordHeaders();
        for (ScenarioScript.Header header : pipe.headers()) {
            headers.add(header.name(), header.value() == null ? null : header.value().getBytes(StandardCharsets.UTF_8));
        }
        driver.createInputTopic(pipe.topic(), new ByteArraySerializer(), new ByteArraySerializer())
            .pipeInput(new TestRecord<>(topic.key().encode(pipe.topic(), pipe.key()), topic.value().encode(pipe.topic(), pipe.value()), headers, pipe.timestamp()));
    }

    private void collectOutputs(TopologyTestDriver driver, int at) {
        for (String name : new TreeSet<>(driver.producedTopicNames())) {
            if (name.startsWith(APPLICATION_ID + "-")) continue;
            ScenarioScript.Topic topic = script.topic(name);
            for (TestRecord<byte[], byte[]> record : driver.createOutputTopic(name, new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList()) {
                ObjectNode node = Json.object();
                node.put("at", at);
                node.put("topic", name);
                node.set("key", topic.key().decode(name, record.key()));
                if (topic.key().keepsBytes && record.key() != null) node.put("keyBytes", Values.hex(record.key()));
                node.set("value", topic.value().decode(name, record.value()));
                if (topic.value().keepsBytes && record.value() != null) node.put("valueBytes", Values.hex(record.value()));
                node.put("timestamp", record.timestamp());
                ArrayNode headers = Json.MAPPER.createArrayNode();
                for (Header header : record.headers()) {
                    headers.addArray().add(header.key()).add(header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8));
                }
                if (!headers.isEmpty()) node.set("headers", headers);
                outputs.add(node);
            }
        }
    }

    private static ObjectNode storeRead(int at, String store, List<ObjectNode> entries) {
        ObjectNode node = Json.object();
        node.put("at", at);
        node.put("store", store);
        node.set("entries", Json.MAPPER.valueToTree(entries));
        return node;
    }

    /** The store's entries in a fixed order (key, then window); timestamps where the store keeps them. */
    private static List<ObjectNode> dump(TopologyTestDriver driver, String name) {
        StateStore store = driver.getAllStateStores().get(name);
        if (store == null) throw new IllegalArgumentException("the topology has no store '" + name + "'");
        List<ObjectNode> entries = new ArrayList<>();
        if (store instanceof VersionedKeyValueStore) {
            throw new IllegalArgumentException("store '" + name + "' is versioned: it has no range to read");
        } else if (store instanceof TimestampedKeyValueStore) {
            try (KeyValueIterator<Object, ValueAndTimestamp<Object>> all = driver.<Object, Object>getTimestampedKeyValueStore(name).all()) {
                all.forEachRemaining(entry -> entries.add(entry(entry.key, null, entry.value.value(), entry.value.timestamp())));
            }
        } else if (store instanceof KeyValueStore) {
            try (KeyValueIterator<Object, Object> all = driver.<Object, Object>getKeyValueStore(name).all()) {
                all.forEachRemaining(entry -> entries.add(entry(entry.key, null, entry.value, null)));
            }
        } else if (store instanceof TimestampedWindowStore) {
            try (KeyValueIterator<Windowed<Object>, ValueAndTimestamp<Object>> all = driver.<Object, Object>getTimestampedWindowStore(name).all()) {
                all.forEachRemaining(entry -> entries.add(entry(entry.key.key(), entry.key, entry.value.value(), entry.value.timestamp())));
            }
        } else if (store instanceof WindowStore) {
            try (KeyValueIterator<Windowed<Object>, Object> all = driver.<Object, Object>getWindowStore(name).all()) {
                all.forEachRemaining(entry -> entries.add(entry(entry.key.key(), entry.key, entry.value, null)));
            }
        } else if (store instanceof ReadOnlySessionStore) {
            try (KeyValueIterator<Windowed<Object>, Object> all = driver.<Object, Object>getSessionStore(name).fetch(null, null)) {
                all.forEachRemaining(entry -> entries.add(entry(entry.key.key(), entry.key, entry.value, null)));
            }
        } else {
            throw new IllegalArgumentException("store '" + name + "' is a " + store.getClass().getName() + ": no golden form");
        }
        entries.sort(Comparator.comparing((ObjectNode entry) -> entry.get("key").toString())
            .thenComparingLong(entry -> entry.path("start").asLong())
            .thenComparingLong(entry -> entry.path("end").asLong()));
        return entries;
    }

    private static ObjectNode entry(Object key, Windowed<?> window, Object value, Long timestamp) {
        ObjectNode node = Json.object();
        node.set("key", Values.toJson(key));
        if (window != null) {
            node.put("start", window.window().start());
            node.put("end", window.window().end());
        }
        node.set("value", Values.toJson(value));
        // -1 (no timestamp) is what a plain key-value store shows behind the timestamped face Kafka Streams gives
        // every DSL store: it keeps none.
        if (timestamp != null && timestamp != -1) node.put("timestamp", timestamp);
        return node;
    }
}
