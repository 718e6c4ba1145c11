/**
 * What a route declares about itself beside its handler: the router validates request bodies with it, and
 * /api/v1/openapi.json describes the route from it. Errors share one shape (docs/api.md#conventions), so an error status
 * names only what it means.
 */
import { assertSupportedSchema, type JsonSchema } from "./json-schema";

export interface ParameterSpec {
  description: string;
  /** Default: a string. */
  schema?: JsonSchema;
}

export interface QueryParameterSpec extends ParameterSpec {
  required?: boolean;
}

export interface BodySpec {
  description?: string;
  /** The router answers 400 naming the field for a body that fails it; the handler finds the body in `req.body`. */
  schema: JsonSchema;
  /** Default: true. An optional body that is absent leaves `req.body` undefined. */
  required?: boolean;
}

export interface ResponseSpec {
  description: string;
  /** Default: application/json; charset=utf-8 when a schema is given. */
  contentType?: string;
  schema?: JsonSchema;
}

export interface RouteSpec {
  summary: string;
  description?: string;
  /** Groups routes in viewers; default: the owner's name. */
  tags?: readonly string[];
  /** By name as in the path (`:id` → `id`); a parameter left out is described as a plain string. */
  pathParameters?: Readonly<Record<string, ParameterSpec>>;
  queryParameters?: Readonly<Record<string, QueryParameterSpec>>;
  body?: BodySpec;
  /** By status; an error status (4xx, 5xx) as its meaning, its body being the error shape. */
  responses: Readonly<Record<number, ResponseSpec | string>>;
}

/** Refuses a declaration that does not fit its path, or whose schemas use keywords the validator does not honour. */
export function assertRouteSpec(spec: RouteSpec, path: string): void {
  const parameters = pathParameterNames(path);
  for (const name of Object.keys(spec.pathParameters ?? {})) {
    if (!parameters.includes(name)) throw new Error(`describes path parameter '${name}', which ${path} does not have`);
  }
  if (spec.body) assertSupportedSchema(spec.body.schema, "#/body");
  for (const [status, response] of Object.entries(spec.responses)) {
    if (typeof response === "object" && response.schema) assertSupportedSchema(response.schema, `#/responses/${status}`);
  }
}

/** `/a/:id/b/:name` → `["id", "name"]`; a trailing `*` is the parameter `path`. */
export function pathParameterNames(path: string): string[] {
  return path
    .split("/")
    .filter((segment) => segment.startsWith(":") || segment === "*")
    .map((segment) => (segment === "*" ? WILDCARD_PARAMETER : segment.slice(1).replace(/\?$/, "")));
}

export const WILDCARD_PARAMETER = "path";
