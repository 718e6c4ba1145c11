import type { RouteListing } from "../http/route-registry";
import { token } from "./token";

/**
 * Every route the HTTP server serves — built-in and REST extension alike — as registered, with what each declares
 * about itself. Registered by the kernel when the server is enabled. Routes are added until every plugin is
 * configured and every REST extension registered: read it when answering a request, not in `configure`.
 */
export interface RouteCatalog {
  routes(): readonly RouteListing[];
}

export const ROUTE_CATALOG = token<RouteCatalog>("sluice.kernel.RouteCatalog");
