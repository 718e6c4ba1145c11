import dev.sluice.reference.golden.GoldenScenario;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;

public class Scenario implements GoldenScenario {
    /** A user's own window supplier, handing out Kafka Streams' in-memory window store under its name. */
    private static WindowBytesStoreSupplier ownWindows(String name, long retentionMs, long sizeMs, boolean retainDuplicates) {
        WindowBytesStoreSupplier inner = Stores.inMemoryWindowStore(name, Duration.ofMillis(retentionMs), Duration.ofMillis(sizeMs), retainDuplicates);
        return new WindowBytesStoreSupplier() {
            @Override public String name() { return name; }
            @Override public WindowStore<Bytes, byte[]> get() { return inner.get(); }
            @Override public long segmentIntervalMs() { return inner.segmentIntervalMs(); }
            @Override public long windowSize() { return sizeMs; }
            @Override public boolean retainDuplicates() { return retainDuplicates; }
            @Override public long retentionPeriod() { return retentionMs; }
            @Override public String metricsScope() { return "own"; }
        };
    }

    /** A user's own session supplier, handing out Kafka Streams' in-memory session store under its name. */
    private static SessionBytesStoreSupplier ownSessions(String name, long retentionMs) {
        SessionBytesStoreSupplier inner = Stores.inMemorySessionStore(name, Duration.ofMillis(retentionMs));
        return new SessionBytesStoreSupplier() {
            @Override public String name() { return name; }
            @Override public SessionStore<Bytes, byte[]> get() { return inner.get(); }
            @Override public long segmentIntervalMs() { return inner.segmentIntervalMs(); }
            @Override public long retentionPeriod() { return retentionMs; }
            @Override public String metricsScope() { return "own"; }
        };
    }

    @Override
    public void build(StreamsBuilder builder) {
        KStream<String, String> clicks = builder.<String, String>stream("clicks");
        KStream<String, String> views = builder.<String, String>stream("views");
        // A left join whose two window stores are the user's (size 20 = before + after, retention 25 = size + grace).
        clicks.leftJoin(views, (click, view) -> click + "+" + view,
                JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)),
                StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String())
                    .withThisStoreSupplier(ownWindows("clicks-seen", 25, 20, true))
                    .withOtherStoreSupplier(ownWindows("views-seen", 25, 20, true)))
            .to("joined");
        clicks.groupByKey()
            .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
            .count(Materialized.<String, Long>as(ownWindows("sliding", 100, 10, false)))
            .toStream()
            .to("sliding-out", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
        clicks.groupByKey().<String>cogroup((key, value, aggregate) -> aggregate + "C" + value)
            .cogroup(views.groupByKey(), (key, value, aggregate) -> aggregate + "V" + value)
            .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
            .aggregate(() -> "", Materialized.<String, String>as(ownWindows("activity", 100, 10, false)))
            .toStream()
            .to("activity-out", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.String()));
        clicks.groupByKey().<String>cogroup((key, value, aggregate) -> aggregate + "C" + value)
            .cogroup(views.groupByKey(), (key, value, aggregate) -> aggregate + "V" + value)
            .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(0)))
            .aggregate(() -> "", (key, left, right) -> left + right, Materialized.<String, String>as(ownSessions("visits", 100)))
            .toStream()
            .to("visits-out", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.String()));
    }
}
