package dev.sluice.reference.clients;

import dev.sluice.reference.JsonLines;
import dev.sluice.reference.ProgramArguments;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A member of a consumer group that commits what it has read after every poll. Runs until it is sent SIGTERM,
 * then leaves the group and closes.
 *
 * <p>Arguments: bootstrap-servers group topic [config=value ...] (group.protocol=consumer, for instance). Prints
 * {"event":"assigned"} and {"event":"revoked"} at rebalances, one {"event":"record"} line per record,
 * {"event":"committed"} after each commit, {"event":"failed"} if the consumer fails, and {"event":"closed"} at the end.
 */
public final class GroupConsumer {
    public static void main(String[] args) throws Exception {
        if (args.length < 3) throw new IllegalArgumentException("usage: GroupConsumer bootstrap-servers group topic [config=value ...]");
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[1]);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        ProgramArguments.withConfigs(props, args, 3);
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props);
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            consumer.wakeup();
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        try {
            consumer.subscribe(List.of(args[2]), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    JsonLines.print("event", "assigned", "partitions", partitions.stream().map(TopicPartition::partition).sorted().toList());
                }

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    JsonLines.print("event", "revoked", "partitions", partitions.stream().map(TopicPartition::partition).sorted().toList());
                }
            });
            for (;;) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<String, String> record : records) {
                    JsonLines.print("event", "record", "partition", record.partition(), "offset", record.offset(), "key", record.key(), "value", record.value());
                }
                if (!records.isEmpty()) {
                    consumer.commitSync();
                    JsonLines.print("event", "committed", "records", records.count());
                }
            }
        } catch (WakeupException stopping) {
            // SIGTERM: leave the group below.
        } catch (Exception e) {
            JsonLines.print("event", "failed", "error", JsonLines.error(e));
        } finally {
            consumer.close();
            JsonLines.print("event", "closed");
            closed.countDown();
        }
    }
}
