import type { ComponentRegistry } from "../components/component-registry";
import type { KeySpec } from "../config/config-schema";
import type { SluiceConfig } from "../config/sluice-config";
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

/**
 * `streams.bootstrap.servers`: the streams runtime declares it among its keys; the embedded broker and whoever
 * needs Kafka read it here, to know whether a cluster is configured.
 */
export const BOOTSTRAP_SERVERS_KEY = {
  type: "string",
  doc: "Kafka brokers (host:port, comma-separated). Unset: Sluice starts its embedded broker.",
} as const satisfies KeySpec;

/** The configured cluster's `host:port` entries, or undefined when none is configured (the embedded broker serves). */
export function configuredBootstrapServers(config: SluiceConfig): string[] | undefined {
  const configured = config.get("streams.bootstrap.servers");
  if (typeof configured !== "string" || configured === "") return undefined;
  return configured.split(",").map((server) => server.trim()).filter(Boolean);
}

/** `streams.bootstrap.servers` when configured, else the address of the provider registered under KAFKA_BOOTSTRAP. */
export function resolveBootstrapServers(config: SluiceConfig, components: ComponentRegistry): string[] {
  const configured = configuredBootstrapServers(config);
  if (configured !== undefined) return configured;
  if (!components.isRegistered(KAFKA_BOOTSTRAP)) {
    throw new StartupError("No Kafka to connect to: set streams.bootstrap.servers, or keep the embedded broker's descriptor line");
  }
  return components.resolve(KAFKA_BOOTSTRAP).servers();
}
