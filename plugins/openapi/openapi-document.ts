/**
 * The OpenAPI 3.1 document of every route the router serves, from the routes' own declarations (RouteSpec):
 * a route that declares nothing is still listed with its method, path and parameters. Errors share one schema;
 * the statuses the kernel answers for every route (bad path encoding, body checks, authentication, bugs) are
 * added here, where they are known, instead of being repeated by each route.
 */
import { ERROR_BODY_SCHEMA, type JsonSchema, pathParameterNames, type ResponseSpec, type RouteListing, type RouteSpec, WILDCARD_PARAMETER } from "sluice";
import type { SecurityScheme } from "./security-schemes";

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

type OpenApiObject = Record<string, unknown>;

const ERROR_REF = { $ref: "#/components/schemas/Error" };
const JSON_MEDIA_TYPE = "application/json";
const METHODS_WITH_BODY: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const GENERAL_DESCRIPTION =
  "Every path answers OPTIONS (204 with Allow), every GET route HEAD; another method on a listed path is a 405 " +
  "with Allow, an unknown path a 404 — both in the error shape, as every error is.";

/** `/api/v1/streams/:id` → `/api/v1/streams/{id}`; `/ui/*` → `/ui/{path}`. */
export function openApiPath(pattern: string): string {
  return pattern
    .split("/")
    .map((segment) => (segment === "*" ? `{${WILDCARD_PARAMETER}}` : segment.startsWith(":") ? `{${segment.slice(1).replace(/\?$/, "")}}` : segment))
    .join("/");
}

export function openApiDocument(routes: readonly RouteListing[], info: DocumentInfo, security: SecurityScheme | undefined): OpenApiObject {
  const paths: Record<string, Record<string, OpenApiObject>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, security);
  }
  const tags = [...new Set(routes.flatMap((route) => tagsOf(route)))].sort().map((name) => ({ name }));
  const components: OpenApiObject = { schemas: { Error: ERROR_BODY_SCHEMA } };
  if (security) components.securitySchemes = security.schemes;
  return {
    openapi: "3.1.0",
    info: { title: info.title, version: info.version, description: `${info.description}\n\n${GENERAL_DESCRIPTION}` },
    tags,
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    components,
  };
}

const tagsOf = (route: RouteListing): readonly string[] => route.spec?.tags ?? [route.owner.name];

function operation(route: RouteListing, security: SecurityScheme | undefined): OpenApiObject {
  const { spec } = route;
  const described: OpenApiObject = {
    operationId: `${route.method.toLowerCase()}_${openApiPath(route.path).replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "")}`,
    summary: spec?.summary ?? `${route.method} ${openApiPath(route.path)}, not described by ${route.owner.builtIn ? "built-in" : "REST extension"} '${route.owner.name}'`,
    tags: tagsOf(route),
  };
  if (spec?.description) described.description = spec.description;
  const parameters = parametersOf(route.path, spec);
  if (parameters.length > 0) described.parameters = parameters;
  if (spec?.body) {
    described.requestBody = {
      required: spec.body.required ?? true,
      ...(spec.body.description ? { description: spec.body.description } : {}),
      content: { [JSON_MEDIA_TYPE]: { schema: spec.body.schema } },
    };
  }
  described.responses = responsesOf(route, security !== undefined);
  if (security) described.security = route.authenticated ? security.requirementsFor(route.role, route.openToPeers) : [];
  described["x-sluice-role"] = route.role;
  return described;
}

function parametersOf(path: string, spec: RouteSpec | undefined): OpenApiObject[] {
  const inPath = pathParameterNames(path).map((name) => {
    const declared = spec?.pathParameters?.[name];
    const description = declared?.description ?? (name === WILDCARD_PARAMETER && path.endsWith("/*") ? "The rest of the path, slashes included" : undefined);
    return { name, in: "path", required: true, ...(description ? { description } : {}), schema: declared?.schema ?? { type: "string" } };
  });
  const inQuery = Object.entries(spec?.queryParameters ?? {}).map(([name, declared]) => ({
    name,
    in: "query",
    required: declared.required ?? false,
    description: declared.description,
    schema: declared.schema ?? { type: "string" },
  }));
  return [...inPath, ...inQuery];
}

/** The route's own responses, then what the kernel answers for it; two meanings of one status are joined. */
function responsesOf(route: RouteListing, authenticationOn: boolean): Record<string, OpenApiObject> {
  const responses = new Map<number | "default", { description: string; content?: OpenApiObject }>();
  for (const [status, response] of Object.entries(route.spec?.responses ?? {})) responses.set(Number(status), responseObject(Number(status), response));
  if (!route.spec) responses.set("default", { description: "Not described by the route's owner" });
  const add = (status: number, description: string) => {
    const existing = responses.get(status);
    responses.set(status, existing ? { ...existing, description: `${existing.description}; or ${lowerFirst(description)}` } : { description, content: errorContent() });
  };
  if (pathParameterNames(route.path).length > 0) add(400, "A path parameter is not valid URL encoding");
  if (route.spec?.body) {
    add(400, "The body is not JSON or does not fit its schema: the message names the field");
    add(415, "The body's Content-Type is not JSON");
  }
  if (METHODS_WITH_BODY.has(route.method)) add(413, "The body is larger than server.body.limit");
  if (authenticationOn && route.authenticated) {
    add(401, "No credentials, or wrong ones (WWW-Authenticate names the scheme)");
    add(403, `The caller's role is below '${route.role}'`);
  }
  add(500, "A bug in Sluice; the message holds no detail of it");
  const ordered = [...responses].sort(([a], [b]) => (a === "default" ? 1 : b === "default" ? -1 : a - b));
  return Object.fromEntries(ordered.map(([status, response]) => [String(status), response]));
}

function responseObject(status: number, response: ResponseSpec | string): { description: string; content?: OpenApiObject } {
  if (typeof response === "string") return { description: response, content: errorContent() };
  if (response.schema) return { description: response.description, content: { [response.contentType ?? JSON_MEDIA_TYPE]: { schema: response.schema } } };
  if (status >= 400) return { description: response.description, content: errorContent() };
  if (response.contentType) return { description: response.description, content: { [response.contentType]: { schema: { type: "string" } satisfies JsonSchema } } };
  return { description: response.description };
}

const errorContent = () => ({ [JSON_MEDIA_TYPE]: { schema: ERROR_REF } });
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
