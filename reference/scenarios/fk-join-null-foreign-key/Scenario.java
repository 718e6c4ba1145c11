import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> orders = builder.table("orders");
        KTable<String, String> customers = builder.table("customers");
        orders.join(customers, order -> order.startsWith("-") ? null : order.split(":")[0],
                (order, customer) -> customer + "/" + order)
            .toStream()
            .to("output");
    }
}
