/**
 * Embedding Sluice in a program (README.md#use-sluice-from-your-own-program). The CLI's `sluice start` uses this same class.
 *
 *   const app = await Sluice.create({ config: { server: { listener: "127.0.0.1", port: 8080 } } });
 *   app.register(myTopologyProvider);
 *   await app.start();
 *   await app.close();
 */
import { resolveBootstrapServers } from "../contracts/kafka-bootstrap";
import { PLUGIN_CONTRACT, type Plugin } from "../contracts/plugin";
import { REST_EXTENSION_CONTRACT, type RestExtension } from "../contracts/rest-extension";
import { TOPOLOGY_PROVIDER_CONTRACT, type TopologyProvider } from "../contracts/streams/topology-provider";
import type { Token } from "../contracts/token";
import { Kernel } from "../kernel";

export interface SluiceOptions {
  /** Configuration as an object (nested or dotted keys), merged over the config file; env and flags override it. */
  config?: Record<string, unknown>;
  /** The application's folder: where the config file and the application's descriptors are found. Default: cwd. */
  root?: string;
  /** An explicit configuration file instead of searching for one. */
  configFile?: string;
  /** `--key=value` style overrides (highest precedence). */
  overrides?: Record<string, string>;
  /** Environment variables to read `SLUICE_*` from; default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where the JSON log lines go; default: stderr. */
  logSink?: (line: string) => void;
}

/** Internal: the CLI runs the server unless told otherwise; a program runs it only when asked. */
export interface LaunchOptions extends SluiceOptions {
  serverByDefault?: boolean;
}

export class Sluice {
  private readonly services: Record<string, unknown[]> = {};
  private kernel: Kernel | undefined;

  private constructor(private readonly options: LaunchOptions) {}

  static async create(options: SluiceOptions = {}): Promise<Sluice> {
    return new Sluice(options);
  }

  /** @internal the CLI's entry. */
  static forCommandLine(options: SluiceOptions): Sluice {
    return new Sluice({ ...options, serverByDefault: true });
  }

  /** Adds a topology provider beside the ones found through descriptors. Call before start(). */
  register(provider: TopologyProvider): this {
    return this.add(TOPOLOGY_PROVIDER_CONTRACT, provider);
  }

  /** Adds a plugin beside the discovered ones. Call before start(). */
  registerPlugin(plugin: Plugin): this {
    return this.add(PLUGIN_CONTRACT, plugin);
  }

  /** Adds a REST extension (loaded when server.rest.extensions is true). Call before start(). */
  registerRestExtension(extension: RestExtension): this {
    return this.add(REST_EXTENSION_CONTRACT, extension);
  }

  /** Discovers descriptors, starts the plugins and applications, and serves HTTP when enabled. */
  async start(): Promise<void> {
    if (this.kernel) throw new Error("Sluice has already been started");
    this.kernel = new Kernel({
      root: this.options.root,
      configFile: this.options.configFile,
      overrides: this.options.overrides,
      env: this.options.env,
      programmatic: this.options.config,
      defaults: { "server.enable": this.options.serverByDefault === true || givesListenerAndPort(this.options.config) },
      services: this.services,
      logSink: this.options.logSink,
    });
    await this.kernel.start();
  }

  async close(): Promise<void> {
    await this.kernel?.close();
  }

  /** Reads the TLS certificates and credential files again without dropping connections (`sluice start` does it on SIGHUP). */
  reload(): void {
    this.kernel?.reloadSecurity();
  }

  /** `host:port` of the HTTP server, or undefined when it is disabled or not started. */
  serverAddress(): string | undefined {
    return this.kernel?.serverAddress();
  }

  /** `host:port` other instances reach this server at (see KernelInfo). */
  advertisedAddress(): string | undefined {
    return this.kernel?.advertisedAddress();
  }

  /** Where Kafka clients reach the brokers the applications use: the embedded broker unless bootstrap.servers is set. */
  kafkaBootstrapServers(): string[] {
    return resolveBootstrapServers(this.started().configuration(), this.started().components);
  }

  /** The kernel's component container (contracts registered by plugins), once started. */
  get components() {
    return this.started().components;
  }

  private started(): Kernel {
    if (!this.kernel) throw new Error("Sluice has not been started");
    return this.kernel;
  }

  private add<T>(contract: Token<T>, implementation: T): this {
    if (this.kernel) throw new Error(`Register ${contract} implementations before start()`);
    (this.services[contract] ??= []).push(implementation);
    return this;
  }
}

function givesListenerAndPort(config: Record<string, unknown> | undefined): boolean {
  if (!config) return false;
  const server = (config.server ?? {}) as Record<string, unknown>;
  const listener = server.listener ?? config["server.listener"];
  const port = server.port ?? config["server.port"];
  return listener !== undefined && port !== undefined;
}
