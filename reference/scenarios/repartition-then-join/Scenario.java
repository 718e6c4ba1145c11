import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> users = builder.table("users", Materialized.as("users-store"));
        builder.<String, String>stream("clicks")
            .map((key, value) -> KeyValue.pair(value.split(":")[0], value.split(":")[1]))
            .repartition(Repartitioned.as("clicks-by-user"))
            .join(users, (page, user) -> user + "@" + page)
            .to("output");
    }
}
