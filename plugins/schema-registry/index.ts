/**
 * The schema registry built into Sluice (docs/api.md#schema-registry): the Confluent Schema Registry REST API under
 * /schema-registry on Sluice's HTTP server, so `schema.registry.url=http://host:port/schema-registry` works in any
 * Confluent client, with its state in the compacted `_schemas` topic (schema.registry.topic) — read back at start,
 * so a restart keeps every subject. On by default with the embedded broker (schema.registry.enable).
 */
import { KAFKA_BOOTSTRAP, optional, resolveBootstrapServers, type Plugin, type PluginContext } from "sluice";
import { SCHEMA_REGISTRY_CONFIG } from "./registry-config";
import { registerRegistryRoutes } from "./registry-routes";
import { SchemaRegistry } from "./schema-registry";
import { SchemasTopic } from "./schemas-topic";

export class SchemaRegistryPlugin implements Plugin {
  readonly configSections = [SCHEMA_REGISTRY_CONFIG];
  readonly requires = [optional(KAFKA_BOOTSTRAP)];
  private readonly registry = new SchemaRegistry();
  private topic: SchemasTopic | undefined;
  private openLog: (() => Promise<void>) | undefined;

  configure({ config, components, routes }: PluginContext): void {
    const settings = config.of(SCHEMA_REGISTRY_CONFIG);
    const clusterConfigured = (config.get("streams.bootstrap.servers") ?? "") !== "";
    const enabled = settings.get("registry.enable") ?? (!clusterConfigured && components.isRegistered(KAFKA_BOOTSTRAP));
    if (!enabled) return;
    registerRegistryRoutes(routes, this.registry);
    this.openLog = async () => {
      this.topic = new SchemasTopic(resolveBootstrapServers(config, components), settings.get("registry.topic"), (key, value) => this.registry.state.apply(key, value));
      await this.topic.start();
      this.registry.attach(this.topic);
    };
  }

  async start(): Promise<void> {
    await this.openLog?.();
  }

  async close(): Promise<void> {
    await this.topic?.close();
  }
}
