import dev.sluice.reference.golden.GoldenScenario;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;

public class Scenario implements GoldenScenario {
    /** A user's own window supplier, handing out Kafka Streams' in-memory window store under its name. */
    private static WindowBytesStoreSupplier ownWindows(String name, long retentionMs, long sizeMs) {
        WindowBytesStoreSupplier inner = Stores.inMemoryWindowStore(name, Duration.ofMillis(retentionMs), Duration.ofMillis(sizeMs), false);
        return new WindowBytesStoreSupplier() {
            @Override public String name() { return name; }
            @Override public WindowStore<Bytes, byte[]> get() { return inner.get(); }
            @Override public long segmentIntervalMs() { return inner.segmentIntervalMs(); }
            @Override public long windowSize() { return sizeMs; }
            @Override public boolean retainDuplicates() { return false; }
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
        // Each word of a value is one record: with the record cache on, one value's updates of a window fold.
        KGroupedStream<String, String> grouped = builder.<String, String>stream("input")
            .flatMapValues(value -> java.util.Arrays.asList(value.split(" ")))
            .groupByKey();
        // Retention 12 < size 10 + grace 5: accepted; a window expires by the store's retention, before its grace ends.
        grouped.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
            .count(Materialized.<String, Long>as(ownWindows("short-retention", 12, 10)))
            .toStream()
            .to("windowed-out", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
        // The supplier's window size (25) is not the windows' (10): accepted; the store's windows end by its own size.
        grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
            .count(Materialized.<String, Long>as(ownWindows("other-size", 1000, 25)));
        grouped.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(0)))
            .count(Materialized.<String, Long>as(ownSessions("sessions", 100)))
            .toStream()
            .to("sessions-out", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.Long()));
    }
}
