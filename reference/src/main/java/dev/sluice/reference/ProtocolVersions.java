package dev.sluice.reference;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Prints, as one JSON array, every API a Kafka client may send to a broker's client listener, with the versions
 * this Apache Kafka (the reference jars) accepts — from its oldest to its latest stable — and those it marks
 * deprecated. Kafka's brokers refuse requests below the oldest (KIP-896 removed many in 4.0) and count the
 * deprecated ones. `reference/bin/kafka-run-class dev.sluice.reference.ProtocolVersions`
 */
public final class ProtocolVersions {
    private ProtocolVersions() {}

    public static void main(String[] args) {
        List<String> apis = new ArrayList<>();
        for (ApiKeys api : ApiKeys.clientApis()) {
            if (!api.inScope(ApiMessageType.ListenerType.BROKER)) continue;
            List<String> deprecated = new ArrayList<>();
            for (short version = api.oldestVersion(); version <= api.latestVersion(); version++) {
                if (api.isVersionDeprecated(version)) deprecated.add(Short.toString(version));
            }
            apis.add(String.format("{\"name\":\"%s\",\"key\":%d,\"oldest\":%d,\"latest\":%d,\"deprecated\":[%s]}",
                api.name, api.id, api.oldestVersion(), api.latestVersion(), String.join(",", deprecated)));
        }
        System.out.println("[" + String.join(",\n", apis) + "]");
    }
}
