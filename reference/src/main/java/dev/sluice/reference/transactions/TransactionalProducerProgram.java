package dev.sluice.reference.transactions;

import dev.sluice.reference.JsonLines;
import dev.sluice.reference.ProgramArguments;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A kafka-clients transactional producer driven by commands on stdin, one per line, each answered by one JSON line
 * on stdout ({"op": ..., "ok": true, ...} or {"op": ..., "ok": false, "error": exception class, "message": ...}):
 *   init | begin | commit | abort | close
 *   send TOPIC PARTITION KEY VALUE          (PARTITION -1: the producer's partitioner)
 *   offsets GROUP TOPIC PARTITION OFFSET    (sendOffsetsToTransaction with the group's metadata, no member)
 * Arguments: BOOTSTRAP TRANSACTIONAL_ID [PRODUCER_CONFIG=VALUE ...]. Exits after close or at the end of stdin.
 */
public final class TransactionalProducerProgram {
    public static void main(String[] args) throws Exception {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, args[1]);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        ProgramArguments.withConfigs(properties, args, 2);
        KafkaProducer<String, String> producer = new KafkaProducer<>(properties);
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = input.readLine(); line != null; line = input.readLine()) {
            String[] words = line.trim().split(" ");
            if (words[0].isEmpty()) continue;
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("op", words[0]);
            try {
                run(producer, words, answer);
                answer.put("ok", true);
            } catch (Exception error) {
                Throwable cause = JsonLines.causeOf(error);
                answer.put("ok", false);
                answer.put("error", cause.getClass().getSimpleName());
                answer.put("message", String.valueOf(cause.getMessage()));
            }
            JsonLines.print(answer);
            if (words[0].equals("close")) return;
        }
        producer.close();
    }

    private static void run(KafkaProducer<String, String> producer, String[] words, Map<String, Object> answer) throws Exception {
        switch (words[0]) {
            case "init" -> producer.initTransactions();
            case "begin" -> producer.beginTransaction();
            case "commit" -> producer.commitTransaction();
            case "abort" -> producer.abortTransaction();
            case "close" -> producer.close();
            case "send" -> {
                int partition = Integer.parseInt(words[2]);
                ProducerRecord<String, String> record = partition < 0
                    ? new ProducerRecord<>(words[1], words[3], words[4])
                    : new ProducerRecord<>(words[1], partition, words[3], words[4]);
                RecordMetadata landed = producer.send(record).get();
                answer.put("partition", landed.partition());
                answer.put("offset", landed.offset());
            }
            case "offsets" -> {
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                offsets.put(new TopicPartition(words[2], Integer.parseInt(words[3])), new OffsetAndMetadata(Long.parseLong(words[4])));
                producer.sendOffsetsToTransaction(offsets, new ConsumerGroupMetadata(words[1]));
            }
            default -> throw new IllegalArgumentException("unknown command " + words[0]);
        }
    }
}
