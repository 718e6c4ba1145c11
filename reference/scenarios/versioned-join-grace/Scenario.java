import dev.sluice.reference.golden.GoldenScenario;
import java.time.Duration;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Joined;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.Stores;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> prices = builder.table("prices", Materialized.as(Stores.persistentVersionedKeyValueStore("prices-versioned", Duration.ofMillis(100))));
        KStream<String, String> orders = builder.stream("orders");
        orders.join(prices, (order, price) -> order + "@" + price, Joined.<String, String, String>as("inner-join").withGracePeriod(Duration.ofMillis(10))).to("inner");
        orders.leftJoin(prices, (order, price) -> order + "@" + price, Joined.<String, String, String>as("left-join").withGracePeriod(Duration.ofMillis(10))).to("left");
    }
}
