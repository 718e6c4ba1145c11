import dev.sluice.reference.golden.GoldenScenario;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        builder.<String, String>table("table")
            .filterNot((key, value) -> value.startsWith("x"))
            .toStream()
            .to("output");
    }
}
