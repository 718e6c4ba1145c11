package dev.sluice.reference.clients;

import dev.sluice.reference.JsonLines;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.kstream.TimeWindowedDeserializer;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.WindowedSerdes;

/**
 * Reads a whole topic with a consumer outside any group: every partition from its start to the end it had when the
 * reader started (under read_committed, its last stable offset), then exits.
 *
 * <p>Arguments: bootstrap-servers topic [string|long [read_uncommitted|read_committed [string|time-windowed:SIZE|session-windowed]]]:
 * how values are read, the isolation level, and how keys are read — strings, or string keys in Kafka Streams'
 * windowed layouts read by its WindowedSerdes (a time window's size, not in the bytes, given). Prints one
 * {"event":"record"} line per record, in offset order per partition, a windowed key as {"key","start","end"}, then
 * {"event":"end","count":n,"end":{partition: position}}.
 */
public final class TopicReader {
    public static void main(String[] args) {
        if (args.length < 2) throw new IllegalArgumentException("usage: TopicReader bootstrap-servers topic [string|long [isolation-level]]");
        Deserializer<?> values = args.length > 2 && args[2].equals("long") ? new LongDeserializer() : new StringDeserializer();
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, args.length > 3 ? args[3] : "read_uncommitted");
        try (KafkaConsumer<?, ?> consumer = new KafkaConsumer<>(props, keys(args.length > 4 ? args[4] : "string"), values)) {
            List<TopicPartition> partitions = consumer.partitionsFor(args[1], Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.currentTimeMillis() + 30_000;
            int count = 0;
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                if (System.currentTimeMillis() > deadline) throw new IllegalStateException("end offsets " + ends + " not reached");
                for (ConsumerRecord<?, ?> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() >= ends.get(new TopicPartition(record.topic(), record.partition()))) continue;
                    JsonLines.print("event", "record", "partition", record.partition(), "offset", record.offset(), "timestamp", record.timestamp(),
                        "key", printable(record.key()), "value", record.value());
                    count++;
                }
            }
            Map<Integer, Long> positions = new TreeMap<>();
            for (TopicPartition partition : partitions) positions.put(partition.partition(), consumer.position(partition));
            JsonLines.print("event", "end", "count", count, "end", positions);
        }
    }

    private static Deserializer<?> keys(String format) {
        if (format.equals("string")) return new StringDeserializer();
        if (format.equals("session-windowed")) return WindowedSerdes.sessionWindowedSerdeFrom(String.class).deserializer();
        if (format.startsWith("time-windowed:")) return new TimeWindowedDeserializer<>(new StringDeserializer(), Long.parseLong(format.substring("time-windowed:".length())));
        throw new IllegalArgumentException("key format: string, time-windowed:SIZE or session-windowed, not " + format);
    }

    private static Object printable(Object key) {
        if (!(key instanceof Windowed<?> windowed)) return key;
        return JsonLines.object("key", windowed.key(), "start", windowed.window().start(), "end", windowed.window().end());
    }
}
