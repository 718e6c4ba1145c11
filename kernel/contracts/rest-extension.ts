import type { ComponentRegistry } from "../components/component-registry";
import type { FlatConfig } from "../config/sluice-config";
import type { RouteRegistrar } from "../http/route-registry";
import { token } from "./token";

/** Descriptor: META-INF/services/sluice.rest.RestExtension, loaded only when server.rest.extensions is true. */
export const REST_EXTENSION_CONTRACT = token<RestExtension>("sluice.rest.RestExtension");

export interface RestExtensionContext {
  /** Resolves components (contracts registered by Sluice and its plugins). */
  components: ComponentRegistry;
  /**
   * The same router as the built-in routes, with the same JSON and error handling and the same checks: a route
   * needs `viewer` (GET) or `operator` (other methods) unless it declares a role (`{ role: "admin" }`), and its
   * handler sees the caller as `req.principal`.
   */
  routes: RouteRegistrar;
}

export interface RestExtension {
  /** Receives the `server` section, keys relative to it (`port`, `info.app.name`, …). */
  configure?(serverConfig: FlatConfig): void | Promise<void>;
  register(context: RestExtensionContext): void | Promise<void>;
  close?(): void | Promise<void>;
}
