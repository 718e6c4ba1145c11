/**
 * What the /api/v1/applications routes take and answer (docs/api.md#applications). The query body's schema checks its shape; what
 * depends on the store (its type, the query's parameters, keys its serde takes) is checked by query-request.ts.
 */
import { APPLICATION_STATES, arrayOf, type JsonSchema, objectSchema, type ParameterSpec, type RouteSpec, TOPOLOGY_SCHEMA } from "sluice";
import { STORE_TYPES, type QueryCatalog } from "./query-catalog";
import { QUERY_OPTION_NAMES } from "./query-options";

const TAGS = ["applications"];
const string: JsonSchema = { type: "string" };
const integer: JsonSchema = { type: "integer" };
const APPLICATION_ID: ParameterSpec = { description: "The application.id of an application of this process", schema: { type: "string", examples: ["wordcount"] } };
const UNKNOWN_APPLICATION = "Unknown application";

const ASSIGNMENTS = arrayOf(objectSchema({ topic: string, partitions: arrayOf(integer) }));

const SERVERS_RECORD_SCHEMA = objectSchema({
  id: string,
  instances: arrayOf(
    objectSchema(
      {
        server: { type: ["string", "null"], description: "host:port; null for a member that advertises no application.server" },
        member_id: { type: "string", description: "Only for a member whose server is null" },
        is_local: { type: "boolean" },
        state: { enum: APPLICATION_STATES, description: "This instance's state, given while it is not running" },
        stores: arrayOf(string),
        assignments: ASSIGNMENTS,
        standby_assignments: ASSIGNMENTS,
      },
      { optional: ["member_id", "state"] },
    ),
  ),
});

// Values may be JSON numbers and booleans or their string forms (docs/api.md#query-request); query-options.ts reads the strings.
const count = (minimum: "minimum" | "exclusiveMinimum", description: string): JsonSchema => ({ type: ["integer", "string"], [minimum]: 0, description });
const OPTION_SCHEMAS: Record<(typeof QUERY_OPTION_NAMES)[number], JsonSchema> = {
  retries: count("minimum", "Default 0"),
  retry_backoff_ms: count("minimum", "Default 100"),
  query_timeout_ms: count("exclusiveMinimum", "Default server.query.timeout.ms"),
  remote_access_allowed: { type: ["boolean", "string"], description: "Ask the other instances too; default false" },
  allow_stale: { type: ["boolean", "string"], description: "Standby tasks may answer a keyed query; each success entry then says standby and lag; default false" },
  limit: count("exclusiveMinimum", "At most this many records in total"),
};

/** The query request body, its queries listed from the query engines' declarations. */
export function queryBodySchema(catalog: QueryCatalog): JsonSchema {
  const queries: Record<string, JsonSchema> = {};
  for (const { name, uses } of catalog.queries()) {
    const description = uses.map(({ type, parameters }) => `${type}: ${parameters.length ? parameters.join(", ") : "no parameters"}`).join("; ");
    queries[name] = { type: "object", description: `Parameters by store type — ${description}` };
  }
  return objectSchema(
    {
      type: { enum: STORE_TYPES, description: "The type of the named store" },
      set_options: objectSchema(OPTION_SCHEMAS, { optional: QUERY_OPTION_NAMES }),
      query: {
        type: "object",
        description: "Exactly one query, by name, with its parameters (time parameters in epoch ms)",
        properties: queries,
        additionalProperties: { type: "object" },
        minProperties: 1,
        maxProperties: 1,
      },
    },
    { optional: ["set_options"] },
  );
}

const RECORDS = arrayOf({
  type: "object",
  description: "{key, value}; timestamped stores add timestamp, versioned stores valid_from and valid_to (null: the latest version); window and session keys are {key, window_start, window_end}",
  properties: { key: {}, value: {}, timestamp: integer, valid_from: integer, valid_to: { type: ["integer", "null"] } },
  required: ["key", "value"],
});

const QUERY_RESULT_SCHEMA = objectSchema({
  took: { type: "integer", description: "Milliseconds" },
  timeout: { type: "boolean" },
  server: { type: "string", description: "This server's host:port" },
  status: { enum: ["SUCCESS", "PARTIAL", "ERROR", "NO_RESULT", "NOT_AVAILABLE"] },
  result: objectSchema({
    total: integer,
    failure: arrayOf(
      objectSchema(
        { server: { type: ["string", "null"] }, member_id: string, remote: { type: "boolean" }, errors: arrayOf(objectSchema({ message: string })) },
        { optional: ["member_id"] },
      ),
    ),
    success: arrayOf(
      objectSchema(
        {
          server: string,
          remote: { type: "boolean" },
          standby: { type: "boolean", description: "With allow_stale: a standby task answered, not the active one" },
          lag: { type: "integer", description: "With allow_stale: changelog records the answering copy was behind (0 for an active task)" },
          total: integer,
          records: RECORDS,
        },
        { optional: ["standby", "lag"] },
      ),
    ),
  }),
});

export function applicationsSpecs(catalog: QueryCatalog) {
  return {
    ids: { summary: "Ids of the applications of this process, sorted", tags: TAGS, responses: { 200: { description: "Application ids", schema: arrayOf(string) } } },
    servers: {
      summary: "Every instance of an application across its consumer group",
      tags: TAGS,
      pathParameters: { id: APPLICATION_ID },
      responses: { 200: { description: "The servers record (docs/api.md#servers)", schema: SERVERS_RECORD_SCHEMA }, 404: UNKNOWN_APPLICATION },
    },
    topology: {
      summary: "An application's topology graph",
      tags: TAGS,
      pathParameters: { id: APPLICATION_ID },
      responses: { 200: { description: "The topology graph (docs/api.md#topology-graph)", schema: TOPOLOGY_SCHEMA }, 404: UNKNOWN_APPLICATION },
    },
    query: {
      summary: "Interactive query on a store",
      description: "Runs locally and, with remote_access_allowed, on the other instances, merging their answers. Viewers may run it.",
      tags: TAGS,
      pathParameters: { id: APPLICATION_ID, name: { description: "A store of the application's topology", schema: { type: "string", examples: ["counts"] } } },
      body: { description: "The query request (docs/api.md#query-request)", schema: queryBodySchema(catalog) },
      responses: {
        200: { description: "The query result (docs/api.md#query-result)", schema: QUERY_RESULT_SCHEMA },
        400: "A type other than the store's, a query the type does not have, a missing, extra or ill-typed parameter, a key the store's serde cannot take, or bounds out of order",
        404: "Unknown application or store",
      },
    },
  } satisfies Record<string, RouteSpec>;
}
