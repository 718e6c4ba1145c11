package dev.sluice.reference.golden;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HexFormat;
import org.apache.kafka.streams.kstream.Windowed;

/**
 * Keys and values as the goldens write them: the objects Kafka Streams' serdes give back, as JSON. Strings
 * stay strings, numbers numbers, json values themselves, bytes become hex, windowed keys {key, start, end}.
 */
final class Values {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Values() {}

    static JsonNode toJson(Object value) {
        if (value == null) return NODES.nullNode();
        if (value instanceof JsonNode node) return node;
        if (value instanceof String text) return NODES.textNode(text);
        if (value instanceof Long number) return NODES.numberNode(number);
        if (value instanceof Integer number) return NODES.numberNode(number);
        if (value instanceof Double number) return NODES.numberNode(number);
        if (value instanceof byte[] bytes) return NODES.textNode(hex(bytes));
        if (value instanceof Windowed<?> windowed) {
            ObjectNode node = NODES.objectNode();
            node.set("key", toJson(windowed.key()));
            node.put("start", windowed.window().start());
            node.put("end", windowed.window().end());
            return node;
        }
        throw new IllegalArgumentException("no golden form for a " + value.getClass().getName());
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
