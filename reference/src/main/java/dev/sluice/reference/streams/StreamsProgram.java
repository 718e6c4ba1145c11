package dev.sluice.reference.streams;

import dev.sluice.reference.JsonLines;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;

/**
 * What the bed's Kafka Streams programs share: their settings, and a KafkaStreams that prints {"event":"state"} at
 * every state change and {"event":"failed"} when a stream thread dies (the client then shuts down), and that SIGTERM
 * closes, printing {"event":"closed"}.
 */
public final class StreamsProgram {
    private StreamsProgram() {}

    /** Bootstrap servers, application id and state directory, with string keys and values by default. */
    public static Properties properties(String bootstrapServers, String applicationId, String stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        return props;
    }

    /** Starts `topology`; `closed` counts down once a SIGTERM has closed it. */
    public static KafkaStreams start(Topology topology, Properties props, CountDownLatch closed) {
        KafkaStreams streams = new KafkaStreams(topology, props);
        streams.setStateListener((now, before) -> JsonLines.print("event", "state", "state", now.toString(), "before", before.toString()));
        streams.setUncaughtExceptionHandler(error -> {
            JsonLines.print("event", "failed", "error", JsonLines.error(error));
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            JsonLines.print("event", "closed");
            closed.countDown();
        }));
        streams.start();
        return streams;
    }
}
