import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.Json;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, String> left = builder.stream("left");
        KStream<String, String> right = builder.stream("right");
        JoinWindows windows = JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10));
        left.join(right, (l, r) -> l + "+" + r, windows).to("inner");
        left.leftJoin(right, (l, r) -> l + "+" + r, windows).to("left-out");
        left.outerJoin(right, (l, r) -> l + "+" + r, windows).to("outer");
    }
}
