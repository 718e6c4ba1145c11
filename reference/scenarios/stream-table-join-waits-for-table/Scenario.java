import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> users = builder.table("users", Materialized.as("users-store"));
        builder.<String, String>stream("clicks").leftJoin(users, (page, user) -> user + "@" + page).to("output");
    }
}
