import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.table("accounts", Consumed.with(Serdes.String(), Serdes.String()))
            .groupBy((account, row) -> KeyValue.pair(row.split(":")[0], row.split(":")[1]))
            .aggregate(
                () -> "",
                (branch, amount, names) -> names + "+" + amount,
                (branch, amount, names) -> names + "-" + amount,
                Materialized.<String, String, org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("ledger").withValueSerde(Serdes.String()))
            .toStream()
            .to("output");
    }
}
