import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        GlobalKTable<String, String> customers = builder.globalTable("customers", Materialized.as("customers-store"));
        KStream<String, String> orders = builder.stream("orders");
        KeyValueMapper<String, String, String> customerOf = (order, ref) -> ref == null || ref.startsWith("none") ? null : ref.split("/")[0];
        orders.join(customers, customerOf, (ValueJoinerWithKey<String, String, String, String>) (key, order, customer) -> key + "|" + customer + ":" + order).to("inner");
        orders.leftJoin(customers, customerOf, (ValueJoinerWithKey<String, String, String, String>) (key, order, customer) -> key + "|" + customer + ":" + order).to("left");
    }
}
