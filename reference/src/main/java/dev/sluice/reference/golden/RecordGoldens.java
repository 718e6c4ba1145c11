package dev.sluice.reference.golden;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Records the goldens of reference/scenarios with Kafka Streams' TopologyTestDriver.
 *
 * <pre>RecordGoldens SCENARIOS_DIR [--out DIR] [NAME...]</pre>
 *
 * Writes golden.json into each scenario's folder, or into DIR/NAME/ with --out (the drift check records into a
 * temporary directory and compares). Only the named scenarios when names are given. Exits 1 when any scenario
 * fails to compile or run; the others are still recorded.
 */
public final class RecordGoldens {
    private RecordGoldens() {}

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: RecordGoldens SCENARIOS_DIR [--out DIR] [NAME...]");
            System.exit(2);
        }
        Path scenariosDir = Path.of(args[0]);
        Path outDir = scenariosDir;
        List<String> names = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--out")) outDir = Path.of(args[++i]);
            else names.add(args[i]);
        }
        if (names.isEmpty()) names = scenarioNames(scenariosDir);
        String recordedWith = "Kafka Streams " + kafkaStreamsVersion();
        Path work = Files.createTempDirectory("sluice-goldens-");
        int failed = 0;
        try (ScenarioCompiler compiler = new ScenarioCompiler()) {
            for (String name : names) {
                Path dir = scenariosDir.resolve(name);
                try {
                    ScenarioScript script = ScenarioScript.read(dir.resolve("script.json"));
                    String topology = script.topologyOf == null ? name : script.topologyOf;
                    GoldenScenario scenario = compiler.load(scenariosDir.resolve(topology).resolve("Scenario.java"), work.resolve("classes").resolve(name));
                    ScenarioRun run = new ScenarioRun(script, scenario);
                    run.run(Files.createDirectories(work.resolve("state").resolve(name)).toString());
                    Path target = Files.createDirectories(outDir.resolve(name)).resolve("golden.json");
                    Files.writeString(target, GoldenWriter.write(name, recordedWith, run), StandardCharsets.UTF_8);
                } catch (Exception | LinkageError e) {
                    failed++;
                    System.err.println("scenario " + name + ": " + describe(e));
                }
            }
        } finally {
            deleteTree(work);
        }
        System.out.println("recorded " + (names.size() - failed) + " of " + names.size() + " goldens with " + recordedWith);
        // Kafka Streams' and RocksDB's threads must not keep the JVM alive.
        System.exit(failed == 0 ? 0 : 1);
    }

    /** The version of the Kafka Streams jar on the classpath, from the properties file it ships. */
    private static String kafkaStreamsVersion() throws IOException {
        Properties version = new Properties();
        try (var in = org.apache.kafka.streams.KafkaStreams.class.getResourceAsStream("/kafka/kafka-streams-version.properties")) {
            if (in == null) throw new IOException("the Kafka Streams jar has no kafka/kafka-streams-version.properties");
            version.load(in);
        }
        return version.getProperty("version");
    }

    private static List<String> scenarioNames(Path scenariosDir) throws IOException {
        try (Stream<Path> dirs = Files.list(scenariosDir)) {
            return dirs.filter(dir -> Files.exists(dir.resolve("script.json"))).map(dir -> dir.getFileName().toString()).sorted().toList();
        }
    }

    private static String describe(Throwable error) {
        StringBuilder text = new StringBuilder(String.valueOf(error));
        for (Throwable cause = error.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            text.append("\n  caused by ").append(cause);
        }
        return text.toString();
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(path);
        }
    }
}
