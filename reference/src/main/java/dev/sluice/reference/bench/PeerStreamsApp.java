package dev.sluice.reference.bench;

import dev.sluice.reference.JsonLines;
import dev.sluice.reference.ProgramArguments;
import dev.sluice.reference.streams.StreamsProgram;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Kafka Streams as the performance peer of bench/reference/peers-bench.ts: the topologies of Sluice's benches, on
 * topics the bench names, until SIGTERM.
 *
 * <p>Arguments: bootstrap-servers application-id state-dir topology input-topic output-topic [config=value ...], where
 * topology is
 * <ul>
 *   <li>stateless: values upper-cased, those longer than 3 characters kept (bench/runtime/stateless-topology.ts);
 *   <li>wordcount: lines lower-cased and split into words, re-keyed by word (a repartition topic) and counted in the
 *       store "counts", the counts (longs) out (the wordcount example, providers/examples/wordcount.ts).
 * </ul>
 * Prints what {@link StreamsProgram} prints, and {"event":"first-input","at":epochMillis,"processed":n} when its stream
 * threads have processed their first records (their process-total, looked at every 5 ms; n is that total then).
 */
public final class PeerStreamsApp {
    private static final Map<String, BiFunction<String, String, Topology>> TOPOLOGIES = Map.of(
        "stateless", PeerStreamsApp::stateless,
        "wordcount", PeerStreamsApp::wordCount);

    public static void main(String[] args) throws Exception {
        if (args.length < 6 || !TOPOLOGIES.containsKey(args[3])) {
            throw new IllegalArgumentException("usage: PeerStreamsApp bootstrap-servers application-id state-dir stateless|wordcount input-topic output-topic [config=value ...]");
        }
        Topology topology = TOPOLOGIES.get(args[3]).apply(args[4], args[5]);
        Properties props = ProgramArguments.withConfigs(StreamsProgram.properties(args[0], args[1], args[2]), args, 6);
        CountDownLatch closed = new CountDownLatch(1);
        KafkaStreams streams = StreamsProgram.start(topology, props, closed);
        double processed = 0;
        while ((processed = processed(streams)) == 0 && closed.getCount() > 0) Thread.sleep(5);
        if (closed.getCount() > 0) JsonLines.print("event", "first-input", "at", System.currentTimeMillis(), "processed", (long) processed);
        closed.await();
    }

    /** Records the stream threads have processed so far. */
    private static double processed(KafkaStreams streams) {
        double total = 0;
        for (Map.Entry<MetricName, ? extends Metric> metric : streams.metrics().entrySet()) {
            MetricName name = metric.getKey();
            if (name.group().equals("stream-thread-metrics") && name.name().equals("process-total")) total += ((Number) metric.getValue().metricValue()).doubleValue();
        }
        return total;
    }

    static Topology stateless(String input, String output) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
            .mapValues(value -> value.toUpperCase())
            .filter((key, value) -> value.length() > 3)
            .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    static Topology wordCount(String input, String output) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
            .flatMapValues(line -> Arrays.stream(line.toLowerCase().split("[^\\p{L}\\p{N}']+")).filter(word -> !word.isEmpty()).toList())
            .groupBy((key, word) -> word, Grouped.with("words-by-word", Serdes.String(), Serdes.String()))
            .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts"))
            .toStream()
            .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }
}
