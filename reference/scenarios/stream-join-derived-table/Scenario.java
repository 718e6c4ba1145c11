import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> users = builder.<String, String>table("users", Materialized.as("users-store"))
            .filter((key, value) -> !value.startsWith("banned"))
            .mapValues(value -> value.toUpperCase());
        builder.<String, String>stream("clicks").leftJoin(users, (page, user) -> user + "@" + page).to("output");
    }
}
