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
        var branches = builder.<String, String>stream("input")
            .split(Named.as("split-"))
            .branch((key, value) -> value.length() > 3, Branched.as("long"))
            .defaultBranch(Branched.as("short"));
        branches.get("split-long").groupByKey().count(Materialized.as("long-counts")).toStream().to("long-counts", Produced.with(Serdes.String(), Serdes.Long()));
        branches.get("split-short").groupByKey().reduce((a, b) -> a + "," + b, Materialized.as("short-words")).toStream().to("short-words");
    }
}
