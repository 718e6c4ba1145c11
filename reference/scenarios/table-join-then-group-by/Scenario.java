import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KTable<String, String> employees = builder.table("employees");
        KTable<String, String> desks = builder.table("desks");
        employees.join(desks, (team, desk) -> team)
            .groupBy((employee, team) -> KeyValue.pair(team, employee))
            .count(Materialized.as("team-sizes"))
            .toStream()
            .to("output", Produced.with(Serdes.String(), Serdes.Long()));
    }
}
