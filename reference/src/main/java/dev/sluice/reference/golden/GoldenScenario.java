package dev.sluice.reference.golden;

import org.apache.kafka.streams.StreamsBuilder;

/**
 * The Kafka Streams side of a golden scenario: {@code reference/scenarios/<name>/Scenario.java} declares
 * {@code public class Scenario implements GoldenScenario} (default package) and describes its topology on the
 * builder. The recorder compiles that one file itself, so a scenario needs no build wiring.
 */
public interface GoldenScenario {
    void build(StreamsBuilder builder);
}
