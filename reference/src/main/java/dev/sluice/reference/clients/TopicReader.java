package dev.sluice.reference.clients;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a whole topic with a consumer outside any group: every partition from its start to the end it had when the
 * reader started, then exits.
 *
 * <p>Arguments: bootstrap-servers topic [string|long] (how values are read; keys are strings). Prints one
 * {"event":"record"} line per record, in offset order per partition, then {"event":"end","count":n}.
 */
public final class TopicReader {
    public static void main(String[] args) {
        if (args.length < 2) throw new IllegalArgumentException("usage: TopicReader bootstrap-servers topic [string|long]");
        Deserializer<?> values = args.length > 2 && args[2].equals("long") ? new LongDeserializer() : new StringDeserializer();
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        try (KafkaConsumer<String, ?> consumer = new KafkaConsumer<>(props, new StringDeserializer(), values)) {
            List<TopicPartition> partitions = consumer.partitionsFor(args[1], Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            int count = 0;
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                for (ConsumerRecord<String, ?> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() >= ends.get(new TopicPartition(record.topic(), record.partition()))) continue;
                    JsonLines.print("event", "record", "partition", record.partition(), "offset", record.offset(), "timestamp", record.timestamp(),
                        "key", record.key(), "value", record.value());
                    count++;
                }
            }
            JsonLines.print("event", "end", "count", count);
        }
    }
}
