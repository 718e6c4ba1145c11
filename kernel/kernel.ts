/**
 * The microkernel: loads configuration, discovers plugins and REST extensions through descriptors, drives their
 * lifecycle (configure → HTTP listen → start; close in reverse) and owns the HTTP server. It imports no plugin.
 */
import { advertisedAddress } from "./http/advertised-address";
import "reflect-metadata";
import fs from "node:fs";
import path from "node:path";
import { SERVER_CONFIG, LOG_CONFIG } from "./config/kernel-config";
import { readConfigSources, validateConfig, type ConfigSources } from "./config/load-config";
import { declarationsOf, extraPackagesOf } from "./config/plugin-configuration";
import type { SluiceConfig } from "./config/sluice-config";
import { JSON_RENDERER, SERIALIZER_MODULE_CONTRACT } from "./contracts/json-serializer";
import { ModuleJsonRenderer } from "./json/module-json-renderer";
import { ComponentContainer } from "./components/component-registry";
import { PluginComponents } from "./components/plugin-components";
import { PLUGIN_CONTRACT, type KernelInfo, type Plugin } from "./contracts/plugin";
import type { Token } from "./contracts/token";
import { REST_EXTENSION_CONTRACT, type RestExtension } from "./contracts/rest-extension";
import { CONFIG, KERNEL_INFO, LOG_LEVEL, LOGGER } from "./contracts/tokens";
import { APPLICATION_LOOKUP, RuntimeApplicationLookup } from "./contracts/streams/application-lookup";
import { StartupError } from "./errors";
import { PEER_TRANSPORT } from "./contracts/peer-transport";
import { HTTP_AUTHENTICATION } from "./contracts/http-authentication";
import { PROCESS_METRICS } from "./contracts/process-metrics";
import { ROUTE_CATALOG } from "./contracts/route-catalog";
import { HttpServer } from "./http/http-server";
import { httpSecurityOf, type HttpSecurity } from "./http/http-security";
import { createLogger, LogLevelSetting, type Logger } from "./logger";
import { lifecycleOrder } from "./plugin-order";
import { describeEntry, ServiceLoader, type NamedService } from "./service-loader";

export const SLUICE_ROOT = path.resolve(__dirname, "..", "..");
export const SLUICE_VERSION: string = JSON.parse(fs.readFileSync(path.join(SLUICE_ROOT, "package.json"), "utf8")).version;

/** The kernel's components a plugin resolves without listing them in `requires`. */
const EVERY_PLUGIN_RESOLVES = [CONFIG, LOGGER, KERNEL_INFO, APPLICATION_LOOKUP];

export interface KernelOptions extends Omit<ConfigSources, "root"> {
  /** The application's folder; default: the current directory. */
  root?: string;
  /** Folder of Sluice's own package (its built-in descriptors); default: the package this kernel is in. */
  sluiceRoot?: string;
  /** Implementations given by the program, per contract id, served after the discovered ones. */
  services?: Record<string, unknown[]>;
  /** Receives log lines instead of stderr (tests). */
  logSink?: (line: string) => void;
}

export class Kernel implements KernelInfo {
  readonly version = SLUICE_VERSION;
  readonly root: string;
  readonly components = new ComponentContainer();
  private config!: SluiceConfig;
  private logger!: Logger;
  private http: HttpServer | undefined;
  private security: HttpSecurity | undefined;
  private address: { host: string; port: number } | undefined;
  private advertised: string | undefined;
  private plugins: NamedService<Plugin>[] = [];
  private extensions: NamedService<RestExtension>[] = [];
  private state: "new" | "starting" | "started" | "closing" | "closed" = "new";

  constructor(private readonly options: KernelOptions = {}) {
    this.root = path.resolve(options.root ?? process.cwd());
  }

  headless(): boolean {
    return this.config.of(SERVER_CONFIG).get("headless");
  }

  serverAddress(): string | undefined {
    return this.address ? `${this.address.host}:${this.address.port}` : undefined;
  }

  advertisedAddress(): string | undefined {
    return this.advertised;
  }

  configuration(): SluiceConfig {
    return this.config;
  }

  async start(): Promise<void> {
    if (this.state !== "new") throw new Error(`Kernel cannot start: it is ${this.state}`);
    this.state = "starting";
    try {
      await this.boot();
      this.state = "started";
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /**
   * Reads the TLS certificates and the credential files (users, tokens, JWT key) again, as SIGHUP does: new
   * connections get the new certificate, open ones are not dropped. Files that cannot be read leave the
   * previous ones in place and are logged.
   */
  reloadSecurity(): void {
    try {
      this.http?.reloadCertificates();
      this.security?.reloadCredentials();
      this.logger.info("TLS certificates and credentials reloaded");
    } catch (error) {
      this.logger.error("reload failed, the previous certificates and credentials stay in use", { error: (error as Error).message });
    }
  }

  async close(): Promise<void> {
    if (this.state === "closing" || this.state === "closed") return;
    this.state = "closing";
    this.security?.close();
    await this.http?.close();
    for (const { name, instance } of [...this.extensions].reverse()) await this.closeQuietly(name, () => instance.close?.());
    for (const { name, instance } of [...this.plugins].reverse()) await this.closeQuietly(name, () => instance.close?.());
    this.state = "closed";
    this.logger?.info("Sluice stopped");
  }

  private async boot(): Promise<void> {
    const entries = await readConfigSources({ ...this.options, root: this.root, env: this.options.env ?? process.env });
    const loader = new ServiceLoader({ root: this.root, sluiceRoot: this.options.sluiceRoot ?? SLUICE_ROOT, extraPackages: extraPackagesOf(entries) });
    const discovered = await this.loadServices(loader, PLUGIN_CONTRACT);
    this.config = validateConfig(entries, declarationsOf(discovered));
    const server = this.config.of(SERVER_CONFIG);
    const level = new LogLevelSetting(this.config.of(LOG_CONFIG).get("level"));
    this.logger = createLogger(level, {}, this.options.logSink);
    this.logger.debug("descriptor roots", { roots: loader.roots() });
    for (const deprecation of this.config.deprecations) this.logger.warn(deprecation);
    this.components.register(CONFIG, { useValue: this.config });
    this.components.register(LOG_LEVEL, { useValue: level });
    this.components.register(LOGGER, { useValue: this.logger });
    this.components.register(KERNEL_INFO, { useValue: this });
    this.components.register(APPLICATION_LOOKUP, { useValue: new RuntimeApplicationLookup(this.components) });
    if (server.get("enable")) {
      const logger = this.logger.child({ component: "http" });
      this.security = httpSecurityOf(this.config, logger);
      this.components.register(PEER_TRANSPORT, { useValue: this.security.peer });
      this.components.register(HTTP_AUTHENTICATION, {
        useValue: {
          mechanism: server.get("auth.mechanism"),
          jwt: server.get("auth.jwt.jwks.url") !== "" || server.get("auth.jwt.public.key.location") !== "",
          peerProofs: server.get("auth.peer.token.file") !== "",
        },
      });
      this.http = new HttpServer({
        bodyLimit: server.get("body.limit"),
        logger,
        security: this.security,
        compressionThreshold: server.get("compression.enable") ? server.get("compression.threshold.bytes") : undefined,
      });
      const { routes } = this.http;
      this.components.register(ROUTE_CATALOG, { useValue: { routes: () => routes.routes() } });
    }

    const serializerModules = await this.loadServices(loader, SERIALIZER_MODULE_CONTRACT);
    this.components.register(JSON_RENDERER, { useValue: new ModuleJsonRenderer(serializerModules.map(({ instance }) => instance)) });
    // Only what was configured is started and closed: a failed startup closes the plugins configured before it.
    for (const plugin of lifecycleOrder(discovered, (component) => this.components.isRegistered(component))) {
      const { name, instance } = plugin;
      this.components.register(PLUGIN_CONTRACT, { useValue: instance });
      await instance.configure?.({
        config: this.config,
        components: new PluginComponents(this.components, plugin, EVERY_PLUGIN_RESOLVES),
        routes: this.routesFor(name, true),
        logger: this.logger.child({ plugin: name }),
        kernel: this,
        services: { load: (contract) => this.loadServices(loader, contract) },
      });
      this.plugins.push(plugin);
    }
    const metrics = this.components.resolveOptional(PROCESS_METRICS);
    if (this.http && metrics) this.http.recordInto(metrics);
    if (this.http && server.get("rest.extensions")) await this.loadExtensions(loader);
    else this.reportSkippedExtensions(loader, this.http ? "server.rest.extensions is false" : "the HTTP server is off (server.enable=false)");

    if (this.http) {
      this.address = await this.http.listen(server.get("listener"), server.get("port"));
      this.security?.watchCredentials(() => this.reloadSecurity());
      this.logger.info("HTTP server listening", { address: `${this.http.protocol}://${this.serverAddress()}` });
      const { address, fromHostname } = advertisedAddress(server.get("advertised.listener"), this.address);
      this.advertised = address;
      if (fromHostname) this.logger.info("advertising the machine's hostname to other instances: the server listens on a wildcard address", { advertised: address });
    }
    for (const { name, instance } of this.plugins) {
      try {
        await instance.start?.();
      } catch (error) {
        if (error instanceof StartupError) throw error;
        throw new StartupError(`Plugin ${name} failed to start: ${(error as Error).message}`, { cause: error });
      }
    }
    this.logger.info("Sluice started", { version: this.version, plugins: this.plugins.length, extensions: this.extensions.length });
  }

  private async loadServices<T>(loader: ServiceLoader, contract: Token<T>): Promise<NamedService<T>[]> {
    const discovered = await loader.instances(contract, (type) => this.components.create(type));
    const given = (this.options.services?.[contract] ?? []).map((instance, index) => ({ name: givenName(contract, index), instance: instance as T }));
    return [...discovered, ...given];
  }

  private async loadExtensions(loader: ServiceLoader): Promise<void> {
    const serverSection = this.config.section("server");
    for (const extension of await this.loadServices(loader, REST_EXTENSION_CONTRACT)) {
      const { name, instance } = extension;
      if (typeof instance.register !== "function") throw new StartupError(`REST extension ${name} has no register(context) method`);
      await instance.configure?.(serverSection);
      this.extensions.push(extension);
      await instance.register({ components: this.components, routes: this.routesFor(name, false) });
      this.logger.info("REST extension registered", { extension: name });
    }
  }

  /** Extensions that are there but not loaded would otherwise only show as 404s: one line names them. */
  private reportSkippedExtensions(loader: ServiceLoader, reason: string): void {
    const given = this.options.services?.[REST_EXTENSION_CONTRACT] ?? [];
    const found = [...loader.discover(REST_EXTENSION_CONTRACT).map(describeEntry), ...given.map((_, index) => givenName(REST_EXTENSION_CONTRACT, index))];
    if (found.length > 0) this.logger.warn(`REST extensions found but not loaded: ${reason}`, { extensions: found });
  }

  private routesFor(name: string, builtIn: boolean) {
    if (this.http) return this.http.routes.registrar({ name, builtIn });
    const ignore = () => undefined;
    return { get: ignore, post: ignore, put: ignore, patch: ignore, delete: ignore };
  }

  private async closeQuietly(name: string, close: () => unknown): Promise<void> {
    try {
      await close();
    } catch (error) {
      this.logger.error("close failed", { component: name, error });
    }
  }
}

/** How an implementation the program gave (`Sluice.register…`) is named in logs and messages. */
const givenName = (contract: string, index: number) => `${contract} given by the program #${index + 1}`;
