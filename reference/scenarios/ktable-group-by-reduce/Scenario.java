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
        builder.table("table", Consumed.with(Serdes.String(), Serdes.Long()))
            .groupBy((key, value) -> KeyValue.pair("total", value), Grouped.with(Serdes.String(), Serdes.Long()))
            .reduce(Long::sum, (aggregate, old) -> aggregate - old, Materialized.as("totals"))
            .toStream()
            .to("output", Produced.with(Serdes.String(), Serdes.Long()));
    }
}
