import dev.sluice.reference.golden.GoldenScenario;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        // An order "customer:item" is keyed by its customer; a "tick" goes to one key of each partition.
        KStream<String, String> orders = builder.<String, String>stream("orders").flatMap((key, value) -> value.equals("tick")
            ? List.of(KeyValue.pair("t0", value), KeyValue.pair("t1", value))
            : List.of(KeyValue.pair(value.split(":")[0], value)));
        KStream<String, String> payments = builder.stream("payments");
        orders.outerJoin(payments, (order, payment) -> order + "/" + payment, JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(100))).to("output");
    }
}
