package dev.sluice.reference.golden;

import java.time.Duration;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

/**
 * A user's own store suppliers for scenarios of custom stores: each hands out Kafka Streams' in-memory store under its
 * name, as a user's supplier of their own would. reference/scenarios/own-stores.ts is the same for the Sluice side.
 */
public final class OwnStores {
    private OwnStores() {}

    public static KeyValueBytesStoreSupplier keyValues(String name) {
        return new KeyValueBytesStoreSupplier() {
            @Override public String name() { return name; }
            @Override public KeyValueStore<Bytes, byte[]> get() { return Stores.inMemoryKeyValueStore(name).get(); }
            @Override public String metricsScope() { return "own"; }
        };
    }

    public static WindowBytesStoreSupplier windows(String name, long retentionMs, long sizeMs, boolean retainDuplicates) {
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

    public static SessionBytesStoreSupplier sessions(String name, long retentionMs) {
        SessionBytesStoreSupplier inner = Stores.inMemorySessionStore(name, Duration.ofMillis(retentionMs));
        return new SessionBytesStoreSupplier() {
            @Override public String name() { return name; }
            @Override public SessionStore<Bytes, byte[]> get() { return inner.get(); }
            @Override public long segmentIntervalMs() { return inner.segmentIntervalMs(); }
            @Override public long retentionPeriod() { return retentionMs; }
            @Override public String metricsScope() { return "own"; }
        };
    }
}
