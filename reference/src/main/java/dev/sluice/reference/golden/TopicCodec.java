package dev.sluice.reference.golden;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HexFormat;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.kstream.SessionWindowedDeserializer;
import org.apache.kafka.streams.kstream.SessionWindowedSerializer;
import org.apache.kafka.streams.kstream.TimeWindowedDeserializer;
import org.apache.kafka.streams.kstream.TimeWindowedSerializer;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.kstream.internals.TimeWindow;

/**
 * The serde a scenario declares for a topic's keys or values (script.json, "topics"): writes the script's JSON
 * into the bytes the topology reads, and reads the bytes it writes back into JSON. Forms: "string", "long",
 * "int", "double", "json", "bytes" (hex in JSON), {"windowed": inner, "size": ms} (time-windowed keys) and
 * {"session": inner} (session-windowed keys).
 */
final class TopicCodec {
    private final Serializer<Object> serializer;
    private final Deserializer<Object> deserializer;
    private final java.util.function.Function<JsonNode, Object> fromJson;
    /** Windowed keys: their bytes are part of the contract, so the golden keeps them too. */
    final boolean keepsBytes;

    @SuppressWarnings("unchecked")
    private TopicCodec(Serde<?> serde, java.util.function.Function<JsonNode, Object> fromJson, boolean keepsBytes) {
        this.serializer = (Serializer<Object>) serde.serializer();
        this.deserializer = (Deserializer<Object>) serde.deserializer();
        this.fromJson = fromJson;
        this.keepsBytes = keepsBytes;
    }

    static TopicCodec of(JsonNode spec, String what) {
        if (spec == null || spec.isNull()) throw new IllegalArgumentException(what + ": no serde declared");
        if (spec.isTextual()) {
            return switch (spec.asText()) {
                case "string" -> new TopicCodec(Serdes.String(), JsonNode::asText, false);
                case "long" -> new TopicCodec(Serdes.Long(), node -> integral(node, what).longValue(), false);
                case "int" -> new TopicCodec(Serdes.Integer(), node -> integral(node, what).intValue(), false);
                case "double" -> new TopicCodec(Serdes.Double(), JsonNode::doubleValue, false);
                case "json" -> new TopicCodec(Json.serde(), node -> node, false);
                case "bytes" -> new TopicCodec(Serdes.ByteArray(), node -> HexFormat.of().parseHex(node.asText()), false);
                default -> throw new IllegalArgumentException(what + ": unknown serde " + spec);
            };
        }
        if (spec.has("windowed")) {
            TopicCodec inner = of(spec.get("windowed"), what);
            long size = spec.path("size").asLong(-1);
            if (size <= 0) throw new IllegalArgumentException(what + ": a windowed serde needs \"size\" (ms)");
            Serde<Windowed<Object>> serde = Serdes.serdeFrom(
                new TimeWindowedSerializer<>(inner.serializer), new TimeWindowedDeserializer<>(inner.deserializer, size));
            return new TopicCodec(serde, node -> new Windowed<>(inner.fromJson.apply(node.get("key")),
                new TimeWindow(node.get("start").asLong(), node.get("start").asLong() + size)), true);
        }
        if (spec.has("session")) {
            TopicCodec inner = of(spec.get("session"), what);
            Serde<Windowed<Object>> serde = Serdes.serdeFrom(
                new SessionWindowedSerializer<>(inner.serializer), new SessionWindowedDeserializer<>(inner.deserializer));
            return new TopicCodec(serde, node -> new Windowed<>(inner.fromJson.apply(node.get("key")),
                new SessionWindow(node.get("start").asLong(), node.get("end").asLong())), true);
        }
        throw new IllegalArgumentException(what + ": unknown serde " + spec);
    }

    private static JsonNode integral(JsonNode node, String what) {
        if (!node.canConvertToExactIntegral()) throw new IllegalArgumentException(what + ": " + node + " is not an integer");
        return node;
    }

    /** null for a JSON null (a null key or a tombstone). */
    byte[] encode(String topic, JsonNode value) {
        if (value == null || value.isNull()) return null;
        return serializer.serialize(topic, fromJson.apply(value));
    }

    JsonNode decode(String topic, byte[] bytes) {
        return bytes == null ? Values.toJson(null) : Values.toJson(deserializer.deserialize(topic, bytes));
    }
}
