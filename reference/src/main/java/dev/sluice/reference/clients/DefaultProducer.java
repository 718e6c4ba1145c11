package dev.sluice.reference.clients;

import dev.sluice.reference.JsonLines;
import dev.sluice.reference.ProgramArguments;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A kafka-clients producer with its defaults: only the bootstrap servers and string serializers are set, so
 * idempotence, acks=all, batching and compression are what Kafka chooses. Extra {@code name=value} arguments are
 * producer configs for the tests that need other settings.
 *
 * <p>Arguments: bootstrap-servers topic [config=value ...]. Reads records from stdin, one JSON object a line:
 * {"key": ..., "value": ..., "timestamp": ..., "partition": ...} (all but value optional). Prints the effective
 * delivery settings, one {"event":"acked"} line per record, then {"event":"done"} after a flush.
 */
public final class DefaultProducer {
    public static void main(String[] args) throws Exception {
        if (args.length < 2) throw new IllegalArgumentException("usage: DefaultProducer bootstrap-servers topic [config=value ...]");
        String topic = args[1];
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        ProgramArguments.withConfigs(props, args, 2);
        ProducerConfig effective = new ProducerConfig(props);
        JsonLines.print("event", "config",
            "enable.idempotence", effective.getBoolean(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG),
            "acks", effective.getString(ProducerConfig.ACKS_CONFIG),
            "compression.type", effective.getString(ProducerConfig.COMPRESSION_TYPE_CONFIG),
            "linger.ms", effective.getLong(ProducerConfig.LINGER_MS_CONFIG),
            "batch.size", effective.getInt(ProducerConfig.BATCH_SIZE_CONFIG));

        AtomicReference<Exception> failure = new AtomicReference<>();
        int sent = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props);
             BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = input.readLine(); line != null; line = input.readLine()) {
                if (line.isBlank()) continue;
                Map<String, Object> record = JsonLines.parse(line);
                String key = (String) record.get("key");
                String value = (String) record.get("value");
                Integer partition = record.get("partition") == null ? null : ((Number) record.get("partition")).intValue();
                Long timestamp = record.get("timestamp") == null ? null : ((Number) record.get("timestamp")).longValue();
                producer.send(new ProducerRecord<>(topic, partition, timestamp, key, value), (metadata, error) -> {
                    if (error != null) {
                        failure.compareAndSet(null, error);
                        JsonLines.print("event", "failed", "key", key, "value", value, "error", JsonLines.error(error));
                    } else {
                        JsonLines.print("event", "acked", "key", key, "value", value, "partition", metadata.partition(), "offset", metadata.offset());
                    }
                });
                sent++;
            }
            producer.flush();
            JsonLines.print("event", "done", "sent", sent,
                "records-per-request-avg", metric(producer, "records-per-request-avg"),
                "compression-rate-avg", metric(producer, "compression-rate-avg"));
        }
        if (failure.get() != null) System.exit(1);
    }

    private static Object metric(KafkaProducer<?, ?> producer, String name) {
        return producer.metrics().entrySet().stream()
            .filter(entry -> entry.getKey().name().equals(name) && entry.getKey().group().equals("producer-metrics"))
            .map(entry -> entry.getValue().metricValue())
            .findFirst().orElse(null);
    }
}
