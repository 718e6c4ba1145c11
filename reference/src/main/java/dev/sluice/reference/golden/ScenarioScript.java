package dev.sluice.reference.golden;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A scenario's script.json: the topics with their serdes, the configuration both sides run with, and the steps,
 * flattened into actions. Each piped record, each wall-clock advance and each store read is one action; the
 * golden tags what an action caused with its index ("at").
 */
final class ScenarioScript {
    sealed interface Action permits Pipe, Advance, Read {}

    record Header(String name, String value) {}

    record Pipe(String topic, JsonNode key, JsonNode value, long timestamp, List<Header> headers) implements Action {}

    record Advance(long ms) implements Action {}

    record Read(String store) implements Action {}

    record Topic(TopicCodec key, TopicCodec value) {}

    final Map<String, Topic> topics = new LinkedHashMap<>();
    final Properties config = new Properties();
    final long wallClockStart;
    /** The scenario whose topology this one runs with its own input, or null: its own Scenario.java. */
    final String topologyOf;
    /** Stores whose final contents the golden leaves out, each with the reason the script gives. */
    final Map<String, String> storesLeftOut = new LinkedHashMap<>();
    final List<Action> actions = new ArrayList<>();

    private ScenarioScript(JsonNode root) {
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("topics").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> topic = it.next();
            String what = "topic " + topic.getKey();
            topics.put(topic.getKey(), new Topic(
                TopicCodec.of(topic.getValue().get("key"), what + " key"),
                TopicCodec.of(topic.getValue().get("value"), what + " value")));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("config").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            config.setProperty(entry.getKey(), entry.getValue().asText());
        }
        wallClockStart = root.path("wallClockStart").asLong(0);
        topologyOf = root.hasNonNull("topologyOf") ? root.get("topologyOf").asText() : null;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("storesLeftOut").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            storesLeftOut.put(entry.getKey(), entry.getValue().asText());
        }
        for (JsonNode step : root.path("steps")) actions.addAll(actionsOf(step));
    }

    static ScenarioScript read(Path file) throws IOException {
        return new ScenarioScript(Json.MAPPER.readTree(file.toFile()));
    }

    Topic topic(String name) {
        Topic topic = topics.get(name);
        if (topic == null) throw new IllegalArgumentException("script.json declares no topic '" + name + "'");
        return topic;
    }

    private List<Action> actionsOf(JsonNode step) {
        if (step.has("pipe")) {
            String topic = step.get("pipe").asText();
            topic(topic);
            List<Action> pipes = new ArrayList<>();
            for (JsonNode record : step.path("records")) pipes.add(pipeOf(topic, record));
            return pipes;
        }
        if (step.has("advance")) return List.of(new Advance(step.get("advance").asLong()));
        if (step.has("read")) return List.of(new Read(step.get("read").asText()));
        throw new IllegalArgumentException("unknown step " + step);
    }

    /** [key, value, timestamp, headers?] or {key, value, timestamp, headers?, partition?}. */
    private static Pipe pipeOf(String topic, JsonNode record) {
        if (record.isArray()) {
            return new Pipe(topic, record.get(0), record.get(1), timestampOf(record.get(2), record), headersOf(record.get(3)));
        }
        return new Pipe(topic, record.get("key"), record.get("value"), timestampOf(record.get("timestamp"), record), headersOf(record.get("headers")));
    }

    private static long timestampOf(JsonNode timestamp, JsonNode record) {
        if (timestamp == null || !timestamp.canConvertToExactIntegral()) {
            throw new IllegalArgumentException("a piped record needs an integer timestamp: " + record);
        }
        return timestamp.longValue();
    }

    private static List<Header> headersOf(JsonNode headers) {
        List<Header> list = new ArrayList<>();
        if (headers == null || headers.isNull()) return list;
        for (JsonNode header : headers) list.add(new Header(header.get(0).asText(), header.get(1).isNull() ? null : header.get(1).asText()));
        return list;
    }
}
