import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> left = builder.table("left");
        KTable<String, String> right = builder.table("right");
        left.join(right, (l, r) -> l + "+" + r).toStream().to("inner");
        left.leftJoin(right, (l, r) -> l + "+" + r).toStream().to("left-out");
        left.outerJoin(right, (l, r) -> l + "+" + r).toStream().to("outer");
    }
}
