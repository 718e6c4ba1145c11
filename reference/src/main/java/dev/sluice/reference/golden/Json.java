package dev.sluice.reference.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The "json" serde of the scenarios: compact JSON text in UTF-8, as Sluice's builtin json serde writes it
 * (JSON.stringify), read into Jackson trees.
 */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    public static Serde<JsonNode> serde() {
        return Serdes.serdeFrom(
            (topic, node) -> node == null ? null : write(node),
            (topic, bytes) -> bytes == null ? null : read(bytes));
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static byte[] write(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode read(byte[] bytes) {
        try {
            return MAPPER.readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
