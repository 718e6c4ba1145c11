/**
 * The streams runtime the kernel plugin drives: it hosts every application of the added topology
 * providers, each with configuration = streams defaults + provider config + per-application overrides.
 */
import type { ApplicationHandle } from "../../kernel/contracts/streams/runtime";
import type { ConfigValue, TopologyProvider } from "../../kernel/contracts/streams/topology-provider";
import { StreamsApplication } from "./application/streams-application";
import { silentLogger, type ComponentLogger } from "../../kernel/logger";
import { applicationConfig, AUTOSTART_KEY } from "./streams-config";
import type { NamedCodeLookup } from "../../kernel/contracts/streams/named-code";
import type { FailedDeployment } from "./application/failed-deployment";
import type { ThreadPlacement } from "./kafka/processing/worker/thread-source";

export interface StreamsRuntimeOptions {
  bootstrapServers: string[];
  /** `streams.*` defaults, without the prefix. */
  streamsConfig: Record<string, ConfigValue>;
  /** Per-application overrides, by application.id. */
  applicationConfig?: (applicationId: string) => Record<string, ConfigValue>;
  /** host:port other instances reach this one at; unset when there is no server. */
  applicationServer?: string | null;
  logger?: ComponentLogger;
  /** The code registered by name (`sluice.streams.NamedCode`) that configuration may refer to. */
  code?: NamedCodeLookup;
  /** Where a provider was found (its descriptor line), for messages that name it; undefined when not known. */
  originOf?: (provider: TopologyProvider) => string | undefined;
  /** Where a provider's stream threads may run (see thread-source); undefined: on the main event loop. */
  threadPlacement?: (provider: TopologyProvider) => ThreadPlacement | undefined;
}

export class StreamsRuntime {
  private readonly apps = new Map<string, StreamsApplication>();
  /** Deployed instances that could not be created: listed in ERROR until terminated. */
  private readonly failed = new Map<string, FailedDeployment>();
  private readonly logger: ComponentLogger;

  constructor(private readonly options: StreamsRuntimeOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Compiles the provider's topology; throws on a bad topology or a duplicate application.id. `deployed` is the
   * configuration of an instance deployed at run time: it sits over the provider's, under `applications.<id>.*`.
   */
  addProvider(provider: TopologyProvider, deployed?: Readonly<Record<string, ConfigValue>>): StreamsApplication {
    const instanceConfig = { ...provider.config, ...deployed };
    const providerId = String(instanceConfig["application.id"] ?? "");
    const { applicationServer, bootstrapServers, streamsConfig } = this.options;
    const { [AUTOSTART_KEY]: _autostart, ...overrides } = (providerId && this.options.applicationConfig?.(providerId)) || {};
    // Unset, input and output topics are created on the embedded broker only, never on a cluster someone named.
    const clusterNamed = [streamsConfig, instanceConfig, overrides].some((values) => values["bootstrap.servers"] !== undefined);
    const config = applicationConfig([
      {
        values: { "bootstrap.servers": bootstrapServers.join(","), "auto.create.topics": !clusterNamed, ...(applicationServer ? { "application.server": applicationServer } : {}) },
        source: "the runtime",
      },
      { values: streamsConfig, source: "the streams configuration" },
      { values: provider.config, source: `topology provider '${provider.name}'` },
      ...(deployed ? [{ values: deployed, source: "the deploy request" }] : []),
      { values: overrides, source: `applications.${providerId}.*` },
    ], this.options.code);
    const threads = this.options.threadPlacement?.(provider) ?? { mainLoop: "its topology provider was added in-process" };
    const app = new StreamsApplication({ provider, config, bootstrapServers: this.options.bootstrapServers, logger: this.logger, threads });
    const existing = this.apps.get(app.id) ?? this.failed.get(app.id);
    if (existing) {
      const first = existing instanceof StreamsApplication ? this.describe(existing.provider) : `'${existing.name}' ${existing.version}`;
      throw new Error(`topology providers ${first} and ${this.describe(provider)} both use application.id '${app.id}': give one of them another`);
    }
    this.apps.set(app.id, app);
    return app;
  }

  /** Lists an instance that could not be created, in ERROR with its reason. */
  addFailed(failed: FailedDeployment): void {
    this.failed.set(failed.id, failed);
  }

  /** Starts every application; one application's failure leaves it in ERROR and the others running. */
  async start(): Promise<void> {
    await Promise.all([...this.apps.values()].map((app) => app.start()));
  }

  /** Stops the application and forgets it; `cleanup` also deletes its local state. */
  async remove(id: string, options: { cleanup: boolean; timeoutMs: number }): Promise<void> {
    this.failed.delete(id);
    const app = this.apps.get(id);
    if (!app) return;
    await app.stop(options);
    this.apps.delete(id);
  }

  async close(timeoutMs = 30_000): Promise<void> {
    await Promise.all([...this.apps.values()].map((app) => app.stop({ timeoutMs })));
  }

  private describe(provider: TopologyProvider): string {
    const origin = this.options.originOf?.(provider);
    return `'${provider.name}' ${provider.version}${origin ? ` (${origin})` : ""}`;
  }

  applications(): ApplicationHandle[] {
    return [...this.apps.values(), ...this.failed.values()];
  }

  application(id: string): ApplicationHandle | undefined {
    return this.apps.get(id) ?? this.failed.get(id);
  }
}
