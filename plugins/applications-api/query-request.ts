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

// The checks walk objects with for-in and build a message only when they reject: a valid request, the common
// case, pays for no key arrays, closures or field names.
export function parseQueryRequest(body: unknown, store: StoreHandle, applicationId: string, catalog: QueryCatalog, defaultTimeoutMs: number): QueryRequest {
  if (body === undefined) throw badRequest("Request body is required: a JSON object with 'type' and 'query'");
  if (!isObject(body)) throw badRequest(`Request body must be a JSON object, got ${JSON.stringify(body)}`);
  for (const field in body) {
    if (!REQUEST_FIELDS.includes(field)) throw badRequest(`Unknown field '${field}' in the query request; expected ${REQUEST_FIELDS.join(", ")}`);
  }
  const type = storeType(body.type, store, applicationId);
  const query = singleQuery(body.query);
  const definition = catalog.definition(type, query.name);
  if (!definition) {
    const valid = catalog.queriesOf(type).join(", ");
    if (catalog.knows(query.name)) throw badRequest(`Query 'query.${query.name}' is not valid for store type '${type}'; valid queries: ${valid}`);
    throw badRequest(`Unknown query 'query.${query.name}'; queries of store type '${type}': ${valid}`);
  }
  const args = decodeParameters(definition, query.params, store);
  return { type, definition, args, rawParams: query.params, options: parseQueryOptions(body.set_options, defaultTimeoutMs) };
}

function storeType(value: unknown, store: StoreHandle, applicationId: string): StoreType {
  if (value === undefined) throw badRequest(`Field 'type' is required: one of ${STORE_TYPES.join(", ")}`);
  if (!STORE_TYPES.includes(value as StoreType)) throw badRequest(`Field 'type' must be one of ${STORE_TYPES.join(", ")}, got ${JSON.stringify(value)}`);
  const type = value as StoreType;
  if (type !== store.type) {
    throw badRequest(`Field 'type' is '${type}' but store '${store.name}' of application '${applicationId}' is a '${store.type}' store`);
  }
  return type;
}

function singleQuery(value: unknown): { name: string; params: Record<string, unknown> } {
  if (value === undefined) throw badRequest("Field 'query' is required: an object holding exactly one query");
  if (!isObject(value)) throw badRequest(`Field 'query' must be an object holding exactly one query, got ${JSON.stringify(value)}`);
  let name = "";
  let count = 0;
  for (const key in value) if (count++ === 0) name = key;
  if (count !== 1) {
    const names = Object.keys(value);
    throw badRequest(`Field 'query' must hold exactly one query, got ${names.length}${names.length ? ` (${names.join(", ")})` : ""}`);
  }
  const params = value[name];
  if (!isObject(params)) throw badRequest(`Field 'query.${name}' must be an object of parameters, got ${JSON.stringify(params)}`);
  return { name, params };
}

const fieldOf = (definition: QueryDefinition, parameter: string) => `query.${definition.name}.${parameter}`;

function declares(definition: QueryDefinition, name: string): boolean {
  for (const parameter of definition.parameters) if (parameter.name === name) return true;
  return false;
}

function decodeParameters(definition: QueryDefinition, params: Record<string, unknown>, store: StoreHandle): QueryArguments {
  for (const name in params) {
    if (!declares(definition, name)) {
      const expected = definition.parameters.map((parameter) => parameter.name);
      throw badRequest(`Unknown parameter '${fieldOf(definition, name)}'; '${definition.name}' takes ${expected.length ? expected.join(", ") : "no parameters"}`);
    }
  }
  const args: Record<string, unknown> = {};
  for (const parameter of definition.parameters) {
    const value = params[parameter.name];
    if (value === undefined) throw badRequest(`Parameter '${fieldOf(definition, parameter.name)}' is required`);
    args[parameter.name] = decodeParameter(definition, parameter, value, store);
  }
  for (const [lower, upper] of definition.ordered ?? NOTHING_ORDERED) {
    if (compare(args[lower], args[upper]) > 0) throw badRequest(`Parameter '${fieldOf(definition, lower)}' must not be greater than '${fieldOf(definition, upper)}'`);
  }
  return args;
}

const NOTHING_ORDERED: NonNullable<QueryDefinition["ordered"]> = [];

function decodeParameter(definition: QueryDefinition, parameter: QueryParameter, value: unknown, store: StoreHandle): unknown {
  if (parameter.kind === "time") {
    const time = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (typeof time !== "number" || !Number.isSafeInteger(time)) {
      throw badRequest(`Parameter '${fieldOf(definition, parameter.name)}' must be an integer (epoch milliseconds), got ${JSON.stringify(value)}`);
    }
    return time;
  }
  try {
    return store.keyFromJson(value);
  } catch (error) {
    throw badRequest(`Parameter '${fieldOf(definition, parameter.name)}' does not fit the key serde of store '${store.name}': ${(error as Error).message}`);
  }
}

/** Orders decoded keys and times: numbers and strings naturally, byte arrays bytewise. */
function compare(a: unknown, b: unknown): number {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return Buffer.compare(a, b);
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return 0;
}
