import type { DependencyContainer } from "tsyringe";
import type { SluiceConfig } from "../config/sluice-config";
import type { RouteRegistrar } from "../http/route-registry";
import type { Logger } from "../logger";

/** Descriptor: META-INF/services/sluice.kernel.Plugin. Built-in features and providers are plugins. */
export const PLUGIN_CONTRACT = "sluice.kernel.Plugin";

export interface KernelInfo {
  /** Sluice's version (package.json). */
  readonly version: string;
  /** The application's root folder (where descriptors and the config file are searched first). */
  readonly root: string;
  /** `host:port` of the HTTP server once it listens; undefined when the server is disabled. */
  serverAddress(): string | undefined;
  /**
   * `host:port` other instances reach the HTTP server at (`server.advertised.listener`, else the listener with the
   * machine's hostname for a wildcard address); undefined when the server is disabled.
   */
  advertisedAddress(): string | undefined;
}

/** Loads the implementations listed in descriptors of any contract, the way the kernel loads plugins. */
export interface ServiceDiscovery {
  /** Instances in discovery order, each named by its descriptor file, line and `module#export`. */
  load<T>(contract: string): Promise<{ name: string; instance: T }[]>;
}

export interface PluginContext {
  config: SluiceConfig;
  /** The component container: resolve contracts, register the ones this plugin provides. */
  components: DependencyContainer;
  routes: RouteRegistrar;
  logger: Logger;
  kernel: KernelInfo;
  services: ServiceDiscovery;
}

/**
 * Lifecycle: every plugin is configured (in descriptor order), then the HTTP server listens, then every plugin
 * starts; on shutdown they close in reverse order. Routes are registered in `configure`.
 */
export interface Plugin {
  configure?(context: PluginContext): void | Promise<void>;
  start?(): void | Promise<void>;
  close?(): void | Promise<void>;
}
