/**
 * Validation of a query request body (docs/api.md#query-request) against the named store and the query engines' declarations,
 * once the router has checked its shape against queryBodySchema. Every rejection is a 400 whose message names the
 * field at fault.
 */
import { badRequest, type QueryArguments, type QueryDefinition, type QueryParameter, type StoreHandle, type StoreQuery, type StoreType } from "sluice";
import type { QueryCatalog } from "./query-catalog";
import { parseQueryOptions, type QueryOptions } from "./query-options";
import { answersAs } from "./store-facades";

export interface QueryRequest {
  type: StoreType;
  definition: QueryDefinition;
  /** Parameters decoded for the store. */
  args: QueryArguments;
  /** Parameters as the client sent them, for forwarding. */
  rawParams: Record<string, unknown>;
  options: QueryOptions;
}

/** A body that fits queryBodySchema: the request of the route and of the interactive-query service. */
export type QueryBody = StoreQuery;

// The checks walk objects with for-in and build a message only when they reject: a valid request, the common
// case, pays for no key arrays, closures or field names.
export function parseQueryRequest(body: QueryBody, store: StoreHandle, applicationId: string, catalog: QueryCatalog, defaultTimeoutMs: number): QueryRequest {
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

/** The query's type: the store's own, or one the store also answers (see store-facades). */
function storeType(type: StoreType, store: StoreHandle, applicationId: string): StoreType {
  if (!answersAs(store.type, type)) {
    throw badRequest(`Field 'type' is '${type}' but store '${store.name}' of application '${applicationId}' is a '${store.type}' store`);
  }
  return type;
}

function singleQuery(query: QueryBody["query"]): { name: string; params: Record<string, unknown> } {
  for (const name in query) return { name, params: query[name] };
  throw badRequest("Field 'query' must hold exactly one query");
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
    if (value === undefined && parameter.optional) continue;
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
