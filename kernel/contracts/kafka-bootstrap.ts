import type { ComponentRegistry } from "../components/component-registry";
import { StartupError } from "../errors";
import { token } from "./token";

/**
 * Container token for where Kafka clients connect when `streams.bootstrap.servers` is not configured: the
 * embedded broker registers it in `configure` and can answer once it has started.
 */
export const KAFKA_BOOTSTRAP = token<KafkaBootstrap>("sluice.kafka.Bootstrap");

export interface KafkaBootstrap {
  /** `host:port` entries; throws when asked before the provider started. */
  servers(): string[];
}

/** `streams.bootstrap.servers` when configured, else the address of the provider registered under KAFKA_BOOTSTRAP. */
export function resolveBootstrapServers(config: { optionalString(key: string): string | undefined }, components: ComponentRegistry): string[] {
  const configured = config.optionalString("streams.bootstrap.servers");
  if (configured !== undefined) return configured.split(",").map((server) => server.trim()).filter(Boolean);
  if (!components.isRegistered(KAFKA_BOOTSTRAP)) {
    throw new StartupError("No Kafka to connect to: set streams.bootstrap.servers, or keep the embedded broker's descriptor line");
  }
  return components.resolve(KAFKA_BOOTSTRAP).servers();
}
