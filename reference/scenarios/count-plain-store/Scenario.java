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
        builder.<String, String>stream("input")
            .groupByKey()
            .count(Materialized.<String, Long>as(org.apache.kafka.streams.state.Stores.persistentKeyValueStore("counts")))
            .toStream()
            .to("output", Produced.with(Serdes.String(), Serdes.Long()));
    }
}
