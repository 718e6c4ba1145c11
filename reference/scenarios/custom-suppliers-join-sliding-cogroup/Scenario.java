import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.OwnStores;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;

public class Scenario implements GoldenScenario {
    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, String> clicks = builder.<String, String>stream("clicks");
        KStream<String, String> views = builder.<String, String>stream("views");
        // A left join whose two window stores are the user's (size 20 = before + after, retention 25 = size + grace).
        clicks.leftJoin(views, (click, view) -> click + "+" + view,
                JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)),
                StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String())
                    .withThisStoreSupplier(OwnStores.windows("clicks-seen", 25, 20, true))
                    .withOtherStoreSupplier(OwnStores.windows("views-seen", 25, 20, true)))
            .to("joined");
        clicks.groupByKey()
            .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
            .count(Materialized.<String, Long>as(OwnStores.windows("sliding", 100, 10, false)))
            .toStream()
            .to("sliding-out", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
        clicks.groupByKey().<String>cogroup((key, value, aggregate) -> aggregate + "C" + value)
            .cogroup(views.groupByKey(), (key, value, aggregate) -> aggregate + "V" + value)
            .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
            .aggregate(() -> "", Materialized.<String, String>as(OwnStores.windows("activity", 100, 10, false)))
            .toStream()
            .to("activity-out", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.String()));
        clicks.groupByKey().<String>cogroup((key, value, aggregate) -> aggregate + "C" + value)
            .cogroup(views.groupByKey(), (key, value, aggregate) -> aggregate + "V" + value)
            .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(0)))
            .aggregate(() -> "", (key, left, right) -> left + right, Materialized.<String, String>as(OwnStores.sessions("visits", 100)))
            .toStream()
            .to("visits-out", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.String()));
    }
}
