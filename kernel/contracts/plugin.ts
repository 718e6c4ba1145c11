import type { ComponentRegistry } from "../components/component-registry";
import type { ConfigSection } from "../config/config-schema";
import type { SluiceConfig } from "../config/sluice-config";
import type { RouteRegistrar } from "../http/route-registry";
import type { Logger } from "../logger";
import { token, type Token } from "./token";

/** Descriptor: META-INF/services/sluice.kernel.Plugin. Built-in features and providers are plugins. */
export const PLUGIN_CONTRACT = token<Plugin>("sluice.kernel.Plugin");

export interface KernelInfo {
  /** Sluice's version (package.json). */
  readonly version: string;
  /** The application's root folder (where descriptors and the config file are searched first). */
  readonly root: string;
  /** Operations that change applications (restart, stop, deploy, ...) are refused: `server.headless`. */
  headless(): boolean;
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
  /**
   * Instances in discovery order, each named by its descriptor file, line and `module#export`; `module` says how
   * another thread loads the same one again, when it can (see ServiceModule).
   */
  load<T>(contract: Token<T>): Promise<{ name: string; instance: T; module?: ServiceModule }[]>;
}

/**
 * Where a discovered service came from, so that a worker thread can load its own copy (functions do not cross
 * threads): the module file and its export, a ready object or a class made with no constructor argument. Absent
 * for services given in-process (Sluice.register) and for classes whose constructor takes injected components.
 */
export interface ServiceModule {
  /** The module file, absolute. */
  file: string;
  exportName: string;
  /** The export is a class to instantiate (with no argument), not a ready object. */
  construct: boolean;
}

export interface PluginContext {
  config: SluiceConfig;
  /** The shared components: resolve the contracts this plugin requires, register the ones it provides. */
  components: ComponentRegistry;
  routes: RouteRegistrar;
  logger: Logger;
  kernel: KernelInfo;
  services: ServiceDiscovery;
}

/** A dependency the plugin works without: it is configured and started after its provider when there is one. */
export interface OptionalDependency {
  readonly optional: Token<unknown>;
}

export function optional(dependency: Token<unknown>): OptionalDependency {
  return { optional: dependency };
}

/**
 * Lifecycle: every plugin is configured, then the HTTP server listens, then every plugin starts; on shutdown they
 * close in reverse order. The order follows `requires` and `provides` (a plugin comes after the providers of what
 * it requires), descriptor order among the rest. Routes are registered in `configure`.
 */
export interface Plugin {
  /**
   * The configuration sections this plugin owns: their keys are validated against these declarations (an unknown
   * key or a value of the wrong type stops startup), and `context.config.of(section)` reads them typed.
   */
  readonly configSections?: readonly ConfigSection[];
  /** Components this plugin resolves: a missing one stops startup naming both; `optional(token)` may be missing. */
  readonly requires?: readonly (Token<unknown> | OptionalDependency)[];
  /** Components this plugin registers in `configure` (some may depend on its configuration). */
  readonly provides?: readonly Token<unknown>[];
  configure?(context: PluginContext): void | Promise<void>;
  start?(): void | Promise<void>;
  close?(): void | Promise<void>;
}
