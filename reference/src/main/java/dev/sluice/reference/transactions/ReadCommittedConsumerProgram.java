package dev.sluice.reference.transactions;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A kafka-clients consumer that reads every partition of a topic from the beginning up to its end offsets as its
 * isolation level sees them (read_committed: the last stable offsets), printing one JSON line per record
 * ({"partition", "offset", "key", "value"}), then {"end": {partition: position}}.
 * Arguments: BOOTSTRAP TOPIC ISOLATION_LEVEL (read_committed or read_uncommitted).
 */
public final class ReadCommittedConsumerProgram {
    public static void main(String[] args) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, args[2]);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
            List<TopicPartition> partitions = consumer.partitionsFor(args[1], Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.currentTimeMillis() + 30_000;
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                if (System.currentTimeMillis() > deadline) throw new IllegalStateException("end offsets " + ends + " not reached");
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    Map<String, Object> line = new LinkedHashMap<>();
                    line.put("partition", record.partition());
                    line.put("offset", record.offset());
                    line.put("key", record.key());
                    line.put("value", record.value());
                    JsonLines.print(line);
                }
            }
            Map<Integer, Long> positions = new LinkedHashMap<>();
            for (TopicPartition partition : partitions) positions.put(partition.partition(), consumer.position(partition));
            JsonLines.print(Map.of("end", positions));
        }
    }
}
