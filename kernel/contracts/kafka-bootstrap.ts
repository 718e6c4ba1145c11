import type { ComponentRegistry } from "../components/component-registry";
import { StartupError } from "../errors";
import { token } from "./token";

/**
 * Container token for where Kafka clients connect when the configuration names no cluster: the embedded broker
 * registers it in `configure` and can answer once it has started.
 */
export const KAFKA_BOOTSTRAP = token<KafkaBootstrap>("sluice.kafka.Bootstrap");

export interface KafkaBootstrap {
  /** `host:port` entries; throws when asked before the provider started. */
  servers(): string[];
}

/**
 * Container token for the Kafka cluster the configuration names (`streams.bootstrap.servers`, a key of the streams
 * runtime's section): the embedded broker asks it whether to start, whoever needs Kafka where to connect. Registered
 * in `configure` by the streams package's cluster plugin, which comes before the broker in the lifecycle.
 */
export const KAFKA_CLUSTER = token<KafkaCluster>("sluice.kafka.Cluster");

export interface KafkaCluster {
  /** The configured cluster's `host:port` entries, or undefined when none is configured (the embedded broker serves). */
  configuredServers(): readonly string[] | undefined;
}

/** The configured cluster, or undefined when none is configured or nothing registered KAFKA_CLUSTER. */
export function configuredCluster(components: ComponentRegistry): readonly string[] | undefined {
  return components.isRegistered(KAFKA_CLUSTER) ? components.resolve(KAFKA_CLUSTER).configuredServers() : undefined;
}

/**
 * Where Kafka clients connect: the configured cluster (KAFKA_CLUSTER), else the provider registered under
 * KAFKA_BOOTSTRAP (the embedded broker). A plugin that calls it requires both, optionally.
 * The two-argument form `(config, components)` of earlier releases is still accepted; the configuration is not read.
 */
export function resolveBootstrapServers(...args: [ComponentRegistry] | [unknown, ComponentRegistry]): string[] {
  const components = args.length === 1 ? args[0] : args[1];
  const configured = configuredCluster(components);
  if (configured !== undefined) return [...configured];
  if (!components.isRegistered(KAFKA_BOOTSTRAP)) {
    throw new StartupError("No Kafka to connect to: set streams.bootstrap.servers, or keep the embedded broker's descriptor line");
  }
  return components.resolve(KAFKA_BOOTSTRAP).servers();
}
