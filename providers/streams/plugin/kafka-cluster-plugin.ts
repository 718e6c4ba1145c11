/**
 * Tells the rest of Sluice which Kafka cluster the configuration names (KAFKA_CLUSTER), from the streams runtime's
 * `streams.bootstrap.servers`. A plugin of its own, ahead of the embedded broker, so that the broker learns whether
 * to start from a typed component while the runtime still comes after the broker (it connects to it).
 */
import { KAFKA_CLUSTER, type KafkaCluster } from "../../../kernel/contracts/kafka-bootstrap";
import type { Plugin, PluginContext } from "../../../kernel/contracts/plugin";
import { STREAMS_CONFIG } from "../streams-config";

export class KafkaClusterPlugin implements Plugin, KafkaCluster {
  readonly provides = [KAFKA_CLUSTER];
  private servers: readonly string[] | undefined;

  configure({ config, components }: PluginContext): void {
    const listed = config.of(STREAMS_CONFIG).get("bootstrap.servers") ?? "";
    const servers = listed.split(",").map((server) => server.trim()).filter(Boolean);
    this.servers = servers.length === 0 ? undefined : servers;
    components.register(KAFKA_CLUSTER, { useValue: this });
  }

  configuredServers(): readonly string[] | undefined {
    return this.servers;
  }
}
