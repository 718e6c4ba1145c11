/**
 * Validation of a query request body (API.md §2.3) against the named store and the query engines'
 * declarations. Every rejection is a 400 whose message names the field at fault.
 */
import type { QueryArguments, QueryDefinition, QueryParameter } from "../../kernel/contracts/query-engine";
import type { StoreHandle } from "../../kernel/contracts/streams/runtime";
import type { StoreType } from "../../kernel/contracts/streams/stores";
import { badRequest } from "../../kernel/http/http-error";
import { STORE_TYPES, type QueryCatalog } from "./query-catalog";
import { parseQueryOptions, type QueryOptions } from "./query-options";

export interface QueryRequest {
  type: StoreType;
  definition: QueryDefinition;
  /** Parameters decoded for the store. */
  args: QueryArguments;
  /** Parameters as the client sent them, for forwarding. */
  rawParams: Record<string, unknown>;
  options: QueryOptions;
}

const REQUEST_FIELDS = ["type", "set_options", "query"];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function parseQueryRequest(body: unknown, store: StoreHandle, applicationId: string, catalog: QueryCatalog, defaultTimeoutMs: number): QueryRequest {
  if (body === undefined) throw badRequest("Request body is required: a JSON object with 'type' and 'query'");
  if (!isObject(body)) throw badRequest(`Request body must be a JSON object, got ${JSON.stringify(body)}`);
  const unknown = Object.keys(body).find((field) => !REQUEST_FIELDS.includes(field));
  if (unknown !== undefined) throw badRequest(`Unknown field '${unknown}' in the query request; expected ${REQUEST_FIELDS.join(", ")}`);
  const type = storeType(body.type, store, applicationId);
  const [name, params] = singleQuery(body.query);
  const definition = catalog.definition(type, name);
  if (!definition) {
    const valid = catalog.queriesOf(type).join(", ");
    if (catalog.knows(name)) throw badRequest(`Query 'query.${name}' is not valid for store type '${type}'; valid queries: ${valid}`);
    throw badRequest(`Unknown query 'query.${name}'; queries of store type '${type}': ${valid}`);
  }
  const args = decodeParameters(definition, params, store);
  return { type, definition, args, rawParams: params, options: parseQueryOptions(body.set_options, defaultTimeoutMs) };
}

function storeType(value: unknown, store: StoreHandle, applicationId: string): StoreType {
  if (value === undefined) throw badRequest(`Field 'type' is required: one of ${STORE_TYPES.join(", ")}`);
  const type = STORE_TYPES.find((candidate) => candidate === value);
  if (!type) throw badRequest(`Field 'type' must be one of ${STORE_TYPES.join(", ")}, got ${JSON.stringify(value)}`);
  if (type !== store.type) {
    throw badRequest(`Field 'type' is '${type}' but store '${store.name}' of application '${applicationId}' is a '${store.type}' store`);
  }
  return type;
}

function singleQuery(value: unknown): [string, Record<string, unknown>] {
  if (value === undefined) throw badRequest("Field 'query' is required: an object holding exactly one query");
  if (!isObject(value)) throw badRequest(`Field 'query' must be an object holding exactly one query, got ${JSON.stringify(value)}`);
  const names = Object.keys(value);
  if (names.length !== 1) throw badRequest(`Field 'query' must hold exactly one query, got ${names.length}${names.length ? ` (${names.join(", ")})` : ""}`);
  const [name] = names;
  const params = value[name];
  if (!isObject(params)) throw badRequest(`Field 'query.${name}' must be an object of parameters, got ${JSON.stringify(params)}`);
  return [name, params];
}

function decodeParameters(definition: QueryDefinition, params: Record<string, unknown>, store: StoreHandle): QueryArguments {
  const field = (name: string) => `query.${definition.name}.${name}`;
  const expected = definition.parameters.map((parameter) => parameter.name);
  const extra = Object.keys(params).find((name) => !expected.includes(name));
  if (extra !== undefined) {
    throw badRequest(`Unknown parameter '${field(extra)}'; '${definition.name}' takes ${expected.length ? expected.join(", ") : "no parameters"}`);
  }
  const args: Record<string, unknown> = {};
  for (const parameter of definition.parameters) {
    if (params[parameter.name] === undefined) throw badRequest(`Parameter '${field(parameter.name)}' is required`);
    args[parameter.name] = decodeParameter(parameter, params[parameter.name], field(parameter.name), store);
  }
  for (const [lower, upper] of definition.ordered ?? []) {
    if (compare(args[lower], args[upper]) > 0) throw badRequest(`Parameter '${field(lower)}' must not be greater than '${field(upper)}'`);
  }
  return args;
}

function decodeParameter(parameter: QueryParameter, value: unknown, field: string, store: StoreHandle): unknown {
  if (parameter.kind === "time") {
    const time = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (typeof time !== "number" || !Number.isSafeInteger(time)) {
      throw badRequest(`Parameter '${field}' must be an integer (epoch milliseconds), got ${JSON.stringify(value)}`);
    }
    return time;
  }
  try {
    return store.keyFromJson(value);
  } catch (error) {
    throw badRequest(`Parameter '${field}' does not fit the key serde of store '${store.name}': ${(error as Error).message}`);
  }
}

/** Orders decoded keys and times: numbers and strings naturally, byte arrays bytewise. */
function compare(a: unknown, b: unknown): number {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return Buffer.compare(a, b);
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return 0;
}
