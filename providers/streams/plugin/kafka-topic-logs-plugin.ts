/**
 * Offers single-partition topic logs (KAFKA_TOPIC_LOGS) on the cluster the streams runtime uses: the configured one,
 * reached with the streams section's security settings (security.protocol, ssl.*, sasl.*), else the embedded broker.
 * For plugins that keep their state in a topic, through a contract rather than a client of their own.
 */
import type { ComponentRegistry } from "../../../kernel/components/component-registry";
import type { SluiceConfig } from "../../../kernel/config/sluice-config";
import { KAFKA_BOOTSTRAP, KAFKA_CLUSTER, resolveBootstrapServers } from "../../../kernel/contracts/kafka-bootstrap";
import { KAFKA_TOPIC_LOGS, type KafkaTopicLogs, type TopicLog, type TopicLogOptions } from "../../../kernel/contracts/kafka-topic-log";
import { optional, type Plugin, type PluginContext } from "../../../kernel/contracts/plugin";
import { PartitionLog, type KafkaEndpoint } from "../../kafka-client";
import { clusterSecurity } from "../kafka/cluster/cluster-security";
import { STREAMS_CONFIG } from "../streams-config";

export class KafkaTopicLogsPlugin implements Plugin, KafkaTopicLogs {
  readonly requires = [optional(KAFKA_CLUSTER), optional(KAFKA_BOOTSTRAP)];
  readonly provides = [KAFKA_TOPIC_LOGS];
  private config!: SluiceConfig;
  private components!: ComponentRegistry;

  configure({ config, components }: PluginContext): void {
    this.config = config;
    this.components = components;
    components.register(KAFKA_TOPIC_LOGS, { useValue: this });
  }

  open(topic: string, options: TopicLogOptions): TopicLog {
    return new PartitionLog(() => this.endpoint(), topic, options);
  }

  /** Asked when a log is first used: by then the embedded broker, if it serves, has started. */
  private endpoint(): KafkaEndpoint {
    const streams = this.config.of(STREAMS_CONFIG);
    return { bootstrapServers: resolveBootstrapServers(this.components), ...clusterSecurity(streams), metadataMaxAgeMs: streams.get("metadata.max.age.ms") };
  }
}
