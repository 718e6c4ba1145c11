import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.OwnStores;
import dev.sluice.reference.golden.Processors;
import java.util.Arrays;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, String> input = builder.<String, String>stream("input");
        KTable<String, Long> counts = input
            .flatMapValues(value -> Arrays.asList(value.split(" ")))
            .groupByKey()
            .count(Materialized.<String, Long>as(OwnStores.keyValues("counts")));
        counts.toStream().to("counts-out", Produced.with(Serdes.String(), Serdes.Long()));
        counts
            .filter((key, count) -> count % 2 == 1)
            .toStream()
            .to("odd-out", Produced.with(Serdes.String(), Serdes.Long()));
        builder.addStateStore(Stores.keyValueStoreBuilder(OwnStores.keyValues("tally"), Serdes.String(), Serdes.Long()).withCachingEnabled());
        input.process(Processors.<String, String, String, String>processor(context -> {
                KeyValueStore<String, Long> tally = context.getStateStore("tally");
                return record -> {
                    for (String word : record.value().split(" ")) {
                        if (word.equals("forget")) tally.delete(record.key());
                        else {
                            Long before = tally.get(word);
                            tally.put(word, (before == null ? 0 : before) + 1);
                        }
                    }
                    StringBuilder all = new StringBuilder();
                    try (KeyValueIterator<String, Long> entries = tally.all()) {
                        entries.forEachRemaining(entry -> all.append(entry.key).append(':').append(entry.value).append(' '));
                    }
                    context.forward(record.withValue(all.toString().trim()));
                };
            }), "tally")
            .to("tally-out");
    }
}
