import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.Json;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, Long> clicks = builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.Long()));
        KStream<String, com.fasterxml.jackson.databind.JsonNode> views = builder.stream("views", Consumed.with(Serdes.String(), Json.serde()));
        clicks.leftJoin(views, (click, view) -> click + "@" + (view == null ? "-" : view.get("page").asText()),
                JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(0)).after(Duration.ofMillis(10)),
                StreamJoined.with(Serdes.String(), Serdes.Long(), Json.serde()).withStoreName("pairs").withName("click-view"))
            .to("output");
    }
}
