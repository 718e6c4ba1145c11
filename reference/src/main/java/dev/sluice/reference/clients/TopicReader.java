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

/**
 * Reads a whole topic with a consumer outside any group: every partition from its start to the end it had when the
 * reader started (under read_committed, its last stable offset), then exits.
 *
 * <p>Arguments: bootstrap-servers topic [string|long [read_uncommitted|read_committed]]: how values are read (keys are
 * strings) and the isolation level. Prints one {"event":"record"} line per record, in offset order per partition, then
 * {"event":"end","count":n,"end":{partition: position}}.
 */
public final class TopicReader {
    public static void main(String[] args) {
        if (args.length < 2) throw new IllegalArgumentException("usage: TopicReader bootstrap-servers topic [string|long [isolation-level]]");
        Deserializer<?> values = args.length > 2 && args[2].equals("long") ? new LongDeserializer() : new StringDeserializer();
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, args.length > 3 ? args[3] : "read_uncommitted");
        try (KafkaConsumer<String, ?> consumer = new KafkaConsumer<>(props, new StringDeserializer(), values)) {
            List<TopicPartition> partitions = consumer.partitionsFor(args[1], Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.currentTimeMillis() + 30_000;
            int count = 0;
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                if (System.currentTimeMillis() > deadline) throw new IllegalStateException("end offsets " + ends + " not reached");
                for (ConsumerRecord<String, ?> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() >= ends.get(new TopicPartition(record.topic(), record.partition()))) continue;
                    JsonLines.print("event", "record", "partition", record.partition(), "offset", record.offset(), "timestamp", record.timestamp(),
                        "key", record.key(), "value", record.value());
                    count++;
                }
            }
            Map<Integer, Long> positions = new TreeMap<>();
            for (TopicPartition partition : partitions) positions.put(partition.partition(), consumer.position(partition));
            JsonLines.print("event", "end", "count", count, "end", positions);
        }
    }
}
