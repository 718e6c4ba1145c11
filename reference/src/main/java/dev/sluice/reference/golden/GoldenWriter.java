package dev.sluice.reference.golden;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes a golden as JSON with one record (or store entry) per line, so that a drift shows in a diff as the lines
 * that changed.
 */
final class GoldenWriter {
    private GoldenWriter() {}

    static String write(String scenario, String recordedWith, ScenarioRun run) {
        StringBuilder out = new StringBuilder();
        out.append("{\n");
        out.append("  \"scenario\": ").append(text(scenario)).append(",\n");
        out.append("  \"recordedWith\": ").append(text(recordedWith)).append(",\n");
        out.append("  \"outputs\": ");
        lines(out, run.outputs, "  ");
        out.append(",\n  \"storeReads\": [");
        for (int i = 0; i < run.storeReads.size(); i++) {
            ObjectNode read = run.storeReads.get(i);
            out.append(i == 0 ? "\n" : ",\n");
            out.append("    {\"at\": ").append(read.get("at")).append(", \"store\": ").append(read.get("store")).append(", \"entries\": ");
            lines(out, read.get("entries"), "    ");
            out.append("}");
        }
        out.append(run.storeReads.isEmpty() ? "]" : "\n  ]");
        out.append(",\n  \"stores\": {");
        Iterator<Map.Entry<String, List<ObjectNode>>> stores = run.stores.entrySet().iterator();
        while (stores.hasNext()) {
            Map.Entry<String, List<ObjectNode>> store = stores.next();
            out.append("\n    ").append(text(store.getKey())).append(": ");
            lines(out, store.getValue(), "    ");
            if (stores.hasNext()) out.append(",");
        }
        out.append(run.stores.isEmpty() ? "}" : "\n  }");
        out.append("\n}\n");
        return out.toString();
    }

    private static void lines(StringBuilder out, Iterable<? extends JsonNode> items, String indent) {
        Iterator<? extends JsonNode> it = items.iterator();
        if (!it.hasNext()) {
            out.append("[]");
            return;
        }
        out.append("[\n");
        while (it.hasNext()) {
            out.append(indent).append("  ").append(compact(it.next()));
            out.append(it.hasNext() ? ",\n" : "\n");
        }
        out.append(indent).append("]");
    }

    private static String compact(JsonNode node) {
        try {
            return Json.MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(String value) {
        return compact(Json.MAPPER.getNodeFactory().textNode(value));
    }
}
