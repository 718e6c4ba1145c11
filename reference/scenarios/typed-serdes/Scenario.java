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
        builder.stream("longs", Consumed.with(Serdes.Long(), Serdes.Long())).mapValues(value -> value + 1).to("longs-out", Produced.with(Serdes.Long(), Serdes.Long()));
        builder.stream("ints", Consumed.with(Serdes.Integer(), Serdes.Integer())).mapValues(value -> value / 2).to("ints-out", Produced.with(Serdes.Integer(), Serdes.Integer()));
        builder.stream("doubles", Consumed.with(Serdes.String(), Serdes.Double())).mapValues(value -> value * 2).to("doubles-out", Produced.with(Serdes.String(), Serdes.Double()));
    }
}
