/**
 * Wires the streams runtime into the kernel: loads every topology provider found through
 * `sluice.streams.TopologyProvider` descriptors, runs them on the configured Kafka (or the embedded broker),
 * and offers the running applications to the REST plugins (ApplicationRegistry) and to /health.
 */
import path from "node:path";
import type { ComponentRegistry } from "../../../kernel/components/component-registry";
import type { SluiceConfig } from "../../../kernel/config/sluice-config";
import { HEALTH_INDICATOR, type HealthIndicator } from "../../../kernel/contracts/health";
import { KAFKA_BOOTSTRAP, KAFKA_CLUSTER, resolveBootstrapServers } from "../../../kernel/contracts/kafka-bootstrap";
import { optional, type KernelInfo, type Plugin, type PluginContext } from "../../../kernel/contracts/plugin";
import { STREAMS_DEPLOYMENTS_TOKEN } from "../../../kernel/contracts/streams/deployments";
import { BUILTIN_SCHEMA_REGISTRY } from "../../../kernel/contracts/schema-registry";
import { STREAMS_RUNTIME_TOKEN, type ApplicationHandle, type ApplicationRegistry } from "../../../kernel/contracts/streams/runtime";
import { TOPOLOGY_PROVIDER_CONTRACT, type TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import type { Logger } from "../../../kernel/logger";
import { NAMED_CODE_CONTRACT } from "../../../kernel/contracts/streams/named-code";
import { readConfiguredFile } from "../../../kernel/http/configured-file";
import { NamedCodeRegistry } from "../code/named-code-registry";
import type { DeployPolicy } from "../deployment/deployed-config";
import type { TrustedClientConfig } from "../deployment/inherited-credentials";
import { DeploymentFile } from "../deployment/deployment-file";
import { SecretSealer } from "../deployment/sealed-secrets";
import { RuntimeDeployments } from "../deployment/runtime-deployments";
import { TopologyCatalogue } from "../deployment/topology-catalogue";
import { threadPlacement, type ThreadPlacement } from "../kafka/processing/worker/thread-source";
import { StreamsRuntime } from "../index";
import { APPLICATIONS_CONFIG, AUTOSTART_KEY, DEPLOYMENTS_KEY_LOCATION, STREAMS_CONFIG } from "../streams-config";

export class StreamsRuntimePlugin implements Plugin, ApplicationRegistry, HealthIndicator {
  /** The configured cluster, or else the embedded broker. */
  readonly requires = [optional(KAFKA_CLUSTER), optional(KAFKA_BOOTSTRAP), optional(BUILTIN_SCHEMA_REGISTRY)];
  readonly provides = [STREAMS_RUNTIME_TOKEN, STREAMS_DEPLOYMENTS_TOKEN, HEALTH_INDICATOR];
  readonly configSections = [STREAMS_CONFIG, APPLICATIONS_CONFIG];
  private config!: SluiceConfig;
  private components!: ComponentRegistry;
  private kernel!: KernelInfo;
  private logger!: Logger;
  private runtime: StreamsRuntime | undefined;
  private deployments!: RuntimeDeployments;
  private stateDir = "";
  private code!: NamedCodeRegistry;
  /** Each provider's descriptor line (or how the program that registered it is named). */
  private origins = new Map<TopologyProvider, string>();
  /** Where each provider's stream threads may run (worker threads when it and the named code load from modules). */
  private placements = new Map<TopologyProvider, ThreadPlacement>();
  private closing = false;

  async configure({ config, components, kernel, logger, services }: PluginContext): Promise<void> {
    this.config = config;
    this.components = components;
    this.kernel = kernel;
    this.logger = logger;
    const loaded = await services.load(TOPOLOGY_PROVIDER_CONTRACT);
    const providers = loaded.map(({ instance }) => instance);
    this.origins = new Map(loaded.map(({ name, instance }) => [instance, name]));
    const catalogue = new TopologyCatalogue(providers, (provider) => this.autostarts(provider));
    const code = await services.load(NAMED_CODE_CONTRACT);
    this.code = new NamedCodeRegistry(code);
    this.placements = new Map(loaded.map(({ instance, module }) => [instance, threadPlacement(module, code)]));
    const streams = config.of(STREAMS_CONFIG);
    this.stateDir = path.resolve(kernel.root, streams.get("state.dir"));
    const logDir = streams.get("log.dir") === "" ? this.stateDir : path.resolve(kernel.root, streams.get("log.dir"));
    const keyFile = streams.get(DEPLOYMENTS_KEY_LOCATION);
    const sealer = keyFile === "" ? undefined : new SecretSealer(readConfiguredFile(keyFile, `streams.${DEPLOYMENTS_KEY_LOCATION}`));
    const policy: DeployPolicy = {
      code: this.code,
      directoryOf: (key) => (key === "log.dir" ? logDir : this.stateDir),
      secretsKept: sealer !== undefined,
      trusted: (id, provider) => this.trustedClientConfig(id, provider),
    };
    this.deployments = new RuntimeDeployments(() => (this.closing ? undefined : this.runtime), catalogue, new DeploymentFile(this.stateDir), logger, policy, sealer);
    components.register(STREAMS_RUNTIME_TOKEN, { useValue: this });
    components.register(STREAMS_DEPLOYMENTS_TOKEN, { useValue: this.deployments });
    components.register(HEALTH_INDICATOR, { useValue: this });
  }

  async start(): Promise<void> {
    const streams = this.config.of(STREAMS_CONFIG);
    const { [DEPLOYMENTS_KEY_LOCATION]: _key, ...defaults } = this.config.section(STREAMS_CONFIG.name);
    const streamsConfig = { ...defaults, "state.dir": this.stateDir, ...this.builtInRegistryUrl(defaults["schema.registry.url"]) };
    const applicationServer = streams.get("application.server") || this.kernel.advertisedAddress();
    this.runtime = new StreamsRuntime({
      bootstrapServers: resolveBootstrapServers(this.components),
      streamsConfig,
      applicationConfig: (id: string) => this.config.section(`${APPLICATIONS_CONFIG.name}.${id}`),
      applicationServer,
      logger: this.logger,
      code: this.code,
      originOf: (provider) => this.origins.get(provider),
      threadPlacement: (provider) => this.placements.get(provider),
    });
    this.deployments.boot();
    await this.runtime.start();
    this.logger.info("applications started", { applications: this.applications().map((app) => app.id) });
  }

  /** The built-in registry as the registry serdes' default: when it runs and `streams.schema.registry.url` is left empty. */
  private builtInRegistryUrl(configured: unknown): { "schema.registry.url"?: string } {
    const address = this.kernel.serverAddress();
    if ((configured ?? "") !== "" || address === undefined || !this.components.isRegistered(BUILTIN_SCHEMA_REGISTRY)) return {};
    return { "schema.registry.url": `http://${address}${this.components.resolve(BUILTIN_SCHEMA_REGISTRY).path}` };
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.runtime?.close();
  }

  applications(): ApplicationHandle[] {
    return [...(this.runtime?.applications() ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  application(id: string): ApplicationHandle | undefined {
    return this.runtime?.application(id);
  }

  /** What instance `id` of `provider` runs with before a deploy request's keys: where it connects, which credentials. */
  private trustedClientConfig(id: string, provider: TopologyProvider): TrustedClientConfig {
    const values = { ...this.config.section(STREAMS_CONFIG.name), ...provider.config, ...this.config.section(`${APPLICATIONS_CONFIG.name}.${id}`) };
    return { bootstrapServers: resolveBootstrapServers(this.components), values };
  }

  /** An instance starts at boot unless its provider or `applications.<id>.autostart` says false. */
  private autostarts(provider: TopologyProvider): boolean {
    const id = String(provider.config["application.id"] ?? "");
    return provider.autostart !== false && this.config.section(`${APPLICATIONS_CONFIG.name}.${id}`)[AUTOSTART_KEY] !== false;
  }

  applicationStates(): Record<string, string> {
    return Object.fromEntries(this.applications().map((app) => [app.id, app.state]));
  }

  paused(): string[] {
    return this.applications().filter((app) => app.paused).map((app) => app.id);
  }

  /** Applications with a store partition still restoring from its changelog: they run but cannot answer queries yet. */
  async notReady(): Promise<string[]> {
    const restoring = async (app: ApplicationHandle) => (await app.storesStatus().catch(() => [])).some((status) => status.restoring);
    const applications = this.applications();
    const flags = await Promise.all(applications.map(restoring));
    return applications.filter((_app, index) => flags[index]).map((app) => app.id);
  }
}
