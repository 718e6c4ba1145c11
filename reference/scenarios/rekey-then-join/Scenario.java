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
            .selectKey((key, value) -> value.split(":")[0])
            .leftJoin(users, (click, user) -> (user == null ? "?" : user) + "@" + click.split(":")[1])
            .to("output");
    }
}
