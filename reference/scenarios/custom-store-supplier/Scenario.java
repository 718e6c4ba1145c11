import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.OwnStores;
import dev.sluice.reference.golden.Processors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, String> input = builder.<String, String>stream("input");
        input.groupByKey()
            .count(Materialized.<String, Long>as(OwnStores.keyValues("counts")))
            .toStream()
            .to("counts-out", Produced.with(Serdes.String(), Serdes.Long()));
        builder.addStateStore(Stores.keyValueStoreBuilder(OwnStores.keyValues("seen"), Serdes.String(), Serdes.Long()));
        input.process(Processors.<String, String, String, String>processor(context -> {
                KeyValueStore<String, Long> seen = context.getStateStore("seen");
                return record -> {
                    if (record.value().equals("forget")) seen.delete(record.key());
                    else {
                        Long before = seen.get(record.key());
                        seen.put(record.key(), (before == null ? 0 : before) + 1);
                    }
                    StringBuilder all = new StringBuilder();
                    try (KeyValueIterator<String, Long> entries = seen.all()) {
                        entries.forEachRemaining(entry -> all.append(entry.key).append(':').append(entry.value).append(' '));
                    }
                    context.forward(record.withValue(all.toString().trim()));
                };
            }), "seen")
            .to("seen-out");
    }
}
