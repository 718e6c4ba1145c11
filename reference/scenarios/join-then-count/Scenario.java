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
        KTable<String, String> users = builder.table("users", Materialized.as("users-store"));
        builder.<String, String>stream("clicks")
            .leftJoin(users, (page, user) -> user == null ? "anonymous" : user)
            .groupBy((key, user) -> user)
            .count(Materialized.as("per-user"))
            .toStream()
            .to("output", Produced.with(Serdes.String(), Serdes.Long()));
    }
}
