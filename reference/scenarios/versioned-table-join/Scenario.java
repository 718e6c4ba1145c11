import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> prices = builder.table("prices",
            Materialized.as(org.apache.kafka.streams.state.Stores.persistentVersionedKeyValueStore("prices-versioned", Duration.ofMillis(100))));
        builder.<String, String>stream("orders").leftJoin(prices, (order, price) -> order + "@" + price).to("output");
    }
}
