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
        builder.stream("input", Consumed.with(Serdes.String(), Serdes.Long()))
            .groupByKey()
            .aggregate(
                () -> (com.fasterxml.jackson.databind.JsonNode) Json.object().put("count", 0).put("sum", 0),
                (key, value, aggregate) -> Json.object().put("count", aggregate.get("count").asLong() + 1).put("sum", aggregate.get("sum").asLong() + value),
                Materialized.<String, com.fasterxml.jackson.databind.JsonNode, org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("stats")
                    .withKeySerde(Serdes.String()).withValueSerde(Json.serde()))
            .toStream()
            .to("output", Produced.with(Serdes.String(), Json.serde()));
    }
}
