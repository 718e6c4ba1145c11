/**
 * Container token for where Kafka clients connect when `streams.bootstrap.servers` is not configured: the
 * embedded broker registers it in `configure` and can answer once it has started.
 */
export const KAFKA_BOOTSTRAP = "sluice.kafka.Bootstrap";

export interface KafkaBootstrap {
  /** `host:port` entries; throws when asked before the provider started. */
  servers(): string[];
}
