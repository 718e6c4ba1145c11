import dev.sluice.reference.golden.GoldenScenario;
import dev.sluice.reference.golden.Processors;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;

public class Scenario implements GoldenScenario {
    // The validTo of what get and delete return is left out: Kafka Streams' processor-facing store leaves it empty.
    static String show(VersionedRecord<String> record) {
        return record == null ? "null" : record.value() + "@" + record.timestamp();
    }

    @Override
    public void build(StreamsBuilder builder) {
        builder.addStateStore(Stores.versionedKeyValueStoreBuilder(Stores.persistentVersionedKeyValueStore("versions", Duration.ofMillis(50)), Serdes.String(), Serdes.String()));
        // A record's value is a command on its key at its timestamp: put:V, del, get, get:T.
        builder.<String, String>stream("commands")
            .process(Processors.<String, String, String, String>processor(context -> {
                VersionedKeyValueStore<String, String> store = context.getStateStore("versions");
                return record -> {
                    String command = record.value();
                    String result;
                    if (command.startsWith("put:")) {
                        long code = store.put(record.key(), command.substring(4), record.timestamp());
                        result = code == VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT ? "NOT_PUT" : String.valueOf(code);
                    } else if (command.equals("del")) {
                        result = show(store.delete(record.key(), record.timestamp()));
                    } else if (command.equals("get")) {
                        result = show(store.get(record.key()));
                    } else {
                        result = show(store.get(record.key(), Long.parseLong(command.substring(4))));
                    }
                    context.forward(record.withValue(command + " -> " + result));
                };
            }), "versions")
            .to("results");
    }
}
