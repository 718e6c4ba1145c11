package dev.sluice.reference.transactions;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

/** One JSON object per line on stdout: what the transactions programs report to the test that runs them. */
final class JsonLines {
    private JsonLines() {}

    static synchronized void print(Map<String, ?> fields) {
        System.out.println(fields.entrySet().stream()
            .map(entry -> quote(entry.getKey()) + ":" + value(entry.getValue()))
            .collect(Collectors.joining(",", "{", "}")));
        System.out.flush();
    }

    /** The exception a client call failed with, unwrapped from the future that carried it. */
    static Throwable causeOf(Throwable error) {
        return error instanceof ExecutionException && error.getCause() != null ? error.getCause() : error;
    }

    private static String value(Object value) {
        if (value == null) return "null";
        if (value instanceof Number || value instanceof Boolean) return value.toString();
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream()
                .map(entry -> quote(String.valueOf(entry.getKey())) + ":" + value(entry.getValue()))
                .collect(Collectors.joining(",", "{", "}"));
        }
        return quote(value.toString());
    }

    private static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) quoted.append(String.format("\\u%04x", (int) c));
                    else quoted.append(c);
                }
            }
        }
        return quoted.append('"').toString();
    }
}
