/**
 * The schema registry built into Sluice (docs/api.md#schema-registry): the Confluent Schema Registry REST API under
 * /schema-registry on Sluice's HTTP server, so `schema.registry.url=http://host:port/schema-registry` works in any
 * Confluent client, with its state in the compacted `_schemas` topic (schema.registry.topic), read with Sluice's own
 * client (KAFKA_TOPIC_LOGS) on the first request and caught up before every answer — so an idle registry costs no
 * connection and no polling, and a restart keeps every subject. On by default with the embedded broker
 * (schema.registry.enable).
 */
import { BUILTIN_SCHEMA_REGISTRY, KAFKA_BOOTSTRAP, KAFKA_TOPIC_LOGS, optional, StartupError, type Plugin, type PluginContext } from "sluice";
import { SCHEMA_REGISTRY_CONFIG } from "./registry-config";
import { REGISTRY_PATH, registerRegistryRoutes } from "./registry-routes";
import { SchemaRegistry } from "./schema-registry";
import { SchemasTopic } from "./schemas-topic";

export class SchemaRegistryPlugin implements Plugin {
  readonly configSections = [SCHEMA_REGISTRY_CONFIG];
  readonly requires = [optional(KAFKA_TOPIC_LOGS), optional(KAFKA_BOOTSTRAP)];
  readonly provides = [BUILTIN_SCHEMA_REGISTRY];
  private topic: SchemasTopic | undefined;

  configure({ config, components, routes }: PluginContext): void {
    const settings = config.of(SCHEMA_REGISTRY_CONFIG);
    const clusterConfigured = (config.get("streams.bootstrap.servers") ?? "") !== "";
    const enabled = settings.get("registry.enable") ?? (!clusterConfigured && components.isRegistered(KAFKA_BOOTSTRAP));
    if (!enabled) return;
    if (!components.isRegistered(KAFKA_TOPIC_LOGS)) throw new StartupError("schema.registry.enable: no Kafka client offers topic logs (sluice.kafka.TopicLogs) to keep the registry's topic");
    const name = settings.get("registry.topic");
    const log = components.resolve(KAFKA_TOPIC_LOGS).open(name, { clientId: "sluice-schema-registry", configs: { "cleanup.policy": "compact" } });
    const topic = new SchemasTopic(log, name, (key, value) => registry.state.apply(key, value));
    const registry = new SchemaRegistry(topic);
    this.topic = topic;
    registerRegistryRoutes(routes, registry);
    // The registry serdes' default registry (an empty schema.registry.url).
    components.register(BUILTIN_SCHEMA_REGISTRY, { useValue: { path: REGISTRY_PATH } });
  }

  async close(): Promise<void> {
    await this.topic?.close();
  }
}
