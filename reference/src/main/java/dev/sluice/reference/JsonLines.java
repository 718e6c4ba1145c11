package dev.sluice.reference;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the reference programs print: one JSON object a line on stdout, which the TypeScript tests read, and the JSON
 * objects some of them read from stdin. Kafka's own logging goes to stderr, so stdout holds nothing else.
 */
public final class JsonLines {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonLines() {}

    /** Prints one object built from alternating names and values: {@code print("event", "acked", "offset", 3)}. */
    public static void print(Object... namesAndValues) {
        print(object(namesAndValues));
    }

    public static synchronized void print(Map<String, ?> object) {
        try {
            System.out.println(MAPPER.writeValueAsString(object));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        System.out.flush();
    }

    public static Map<String, Object> object(Object... namesAndValues) {
        if (namesAndValues.length % 2 != 0) throw new IllegalArgumentException("names and values come in pairs");
        Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) object.put((String) namesAndValues[i], namesAndValues[i + 1]);
        return object;
    }

    public static Map<String, Object> parse(String line) {
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> object = MAPPER.readValue(line, Map.class);
            return object;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON object: " + line, e);
        }
    }

    /** The exception a client call failed with, unwrapped from the future that carried it. */
    public static Throwable causeOf(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof java.util.concurrent.ExecutionException || cause instanceof java.util.concurrent.CompletionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The failure of a call, as the tests compare it: Kafka's exception class and its message. */
    public static Map<String, Object> error(Throwable error) {
        Throwable cause = causeOf(error);
        return object("error", cause.getClass().getSimpleName(), "message", String.valueOf(cause.getMessage()));
    }
}
