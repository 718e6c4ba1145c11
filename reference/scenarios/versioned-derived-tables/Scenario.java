import dev.sluice.reference.golden.GoldenScenario;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

public class Scenario implements GoldenScenario {
    private static <V> Materialized<String, V, KeyValueStore<Bytes, byte[]>> versioned(String name) {
        return Materialized.as(Stores.persistentVersionedKeyValueStore(name, Duration.ofMillis(50)));
    }

    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> prices = builder.table("prices", versioned("prices-v"));
        prices.filter((key, price) -> !price.startsWith("x"), versioned("kept-v"))
            .mapValues(price -> price.toUpperCase(), versioned("upper-v"))
            .toStream().to("upper");
        builder.<String, String>stream("clicks").groupByKey()
            .count(Materialized.<String, Long>as(Stores.persistentVersionedKeyValueStore("clicks-v", Duration.ofMillis(50))).withValueSerde(Serdes.Long()))
            .toStream().to("counts", Produced.with(Serdes.String(), Serdes.Long()));
    }
}
