package dev.sluice.reference.streams;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The Kafka Streams topologies the reference suite runs on Sluice's embedded broker, by name. Keys and values are
 * strings, counts are longs. Each names its topics and stores here, where the tests read them.
 */
public final class ReferenceTopologies {
    private ReferenceTopologies() {}

    public static final Map<String, Supplier<Topology>> BY_NAME = Map.of(
        "wordcount", ReferenceTopologies::wordCount,
        "enrich-orders", ReferenceTopologies::enrichOrders,
        "clicks-per-minute", ReferenceTopologies::clicksPerMinute);

    /** Lines of "text-lines" split into words, re-keyed by word (a repartition topic), counted in "word-counts" (a changelog), out to "word-counts-output". */
    static Topology wordCount() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("text-lines", Consumed.with(Serdes.String(), Serdes.String()))
            .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+")))
            .filter((key, word) -> !word.isEmpty())
            .groupBy((key, word) -> word, Grouped.with("words", Serdes.String(), Serdes.String()))
            .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("word-counts"))
            .toStream()
            .to("word-counts-output", Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    /**
     * Orders keyed by order id ("customer:amount") re-keyed by customer (a repartition topic) and joined to the table
     * of customers (their region), out to "orders-enriched" as "order:amount:region"; an order of an unknown customer
     * is dropped by the inner join.
     */
    static Topology enrichOrders() {
        StreamsBuilder builder = new StreamsBuilder();
        KTable<String, String> customers = builder.table("customers", Consumed.with(Serdes.String(), Serdes.String()),
            Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("customers-store"));
        KStream<String, String> orders = builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()));
        orders
            .map((order, value) -> {
                String[] customerAndAmount = value.split(":", 2);
                return org.apache.kafka.streams.KeyValue.pair(customerAndAmount[0], order + ":" + customerAndAmount[1]);
            })
            .join(customers, (orderAndAmount, region) -> orderAndAmount + ":" + region)
            .map((customer, enriched) -> org.apache.kafka.streams.KeyValue.pair(enriched.substring(0, enriched.indexOf(':')), customer + ":" + enriched.substring(enriched.indexOf(':') + 1)))
            .to("orders-enriched", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    /** Clicks keyed by user counted in tumbling one-minute windows (grace one hour) in "clicks-per-minute", out as "user@windowStart". */
    static Topology clicksPerMinute() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
            .groupByKey()
            .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(1), Duration.ofHours(1)))
            .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("clicks-per-minute"))
            .toStream((window, count) -> window.key() + "@" + window.window().start())
            .to("clicks-per-minute-output", Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }
}
