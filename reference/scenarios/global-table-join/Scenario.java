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
        GlobalKTable<String, String> customers = builder.globalTable("customers", Materialized.as("customers-global"));
        KStream<String, String> orders = builder.stream("orders");
        orders.join(customers, (order, customer) -> customer, (order, customer) -> customer + ":" + order).to("inner");
        orders.leftJoin(customers, (order, customer) -> customer, (order, customer) -> (customer == null ? "?" : customer) + ":" + order).to("left");
    }
}
