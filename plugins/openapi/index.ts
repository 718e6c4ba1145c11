/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document of every route Sluice serves — built-in plugins' and REST
 * extensions' — built from the route catalog, so it describes what the router actually serves. Its `info` comes
 * from `server.info.app.name`, `.version` and `.description`, Sluice's name and version otherwise.
 */
import { type FlatConfig, HTTP_AUTHENTICATION, type KernelInfo, optional, type Plugin, type PluginContext, ROUTE_CATALOG, type RouteCatalog } from "sluice";
import { openApiDocument, type DocumentInfo } from "./openapi-document";
import { OPENAPI_SPEC } from "./openapi-route-specs";
import { securitySchemeOf, type SecurityScheme } from "./security-schemes";

export class OpenApiPlugin implements Plugin {
  readonly requires = [optional(ROUTE_CATALOG), optional(HTTP_AUTHENTICATION)];
  /** Built at the first request: by then every route is registered, and none is added while Sluice runs. */
  private document: Record<string, unknown> | undefined;

  configure({ config, components, routes, kernel }: PluginContext): void {
    // Without the HTTP server (server.enable=false) there are no routes to describe.
    const catalog = components.resolveOptional(ROUTE_CATALOG);
    if (!catalog) return;
    const info = documentInfo(config.section("server.info"), kernel);
    const authentication = components.resolveOptional(HTTP_AUTHENTICATION);
    const security = authentication && securitySchemeOf(authentication);
    routes.get("/api/v1/openapi.json", () => (this.document ??= build(catalog, info, security)), { spec: OPENAPI_SPEC });
  }
}

const build = (catalog: RouteCatalog, info: DocumentInfo, security: SecurityScheme | undefined) => openApiDocument(catalog.routes(), info, security);

function documentInfo(serverInfo: FlatConfig, kernel: KernelInfo): DocumentInfo {
  const text = (key: string) => (serverInfo[key] === undefined || serverInfo[key] === "" ? undefined : String(serverInfo[key]));
  return {
    title: text("app.name") ?? "Sluice",
    version: text("app.version") ?? kernel.version,
    description: text("app.description") ?? "Deploy, manage and monitor the stream-processing applications of one Sluice process.",
  };
}
