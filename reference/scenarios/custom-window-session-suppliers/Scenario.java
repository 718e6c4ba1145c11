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
        // Each word of a value is one record: with the record cache on, one value's updates of a window fold.
        KGroupedStream<String, String> grouped = builder.<String, String>stream("input")
            .flatMapValues(value -> java.util.Arrays.asList(value.split(" ")))
            .groupByKey();
        // Retention 12 < size 10 + grace 5: accepted; a window expires by the store's retention, before its grace ends.
        grouped.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
            .count(Materialized.<String, Long>as(OwnStores.windows("short-retention", 12, 10, false)))
            .toStream()
            .to("windowed-out", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
        // The supplier's window size (25) is not the windows' (10): accepted; the store's windows end by its own size.
        grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
            .count(Materialized.<String, Long>as(OwnStores.windows("other-size", 1000, 25, false)));
        grouped.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(0)))
            .count(Materialized.<String, Long>as(OwnStores.sessions("sessions", 100)))
            .toStream()
            .to("sessions-out", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.Long()));
    }
}
