/** What the /api/v1/streams routes take and answer (docs/api.md#streams), field for field as streams-json.ts writes them. */
import { APPLICATION_STATES, arrayOf, type BodySpec, type JsonSchema, objectSchema, type ParameterSpec, type RouteSpec, STORE_TYPES, TOPOLOGY_SCHEMA } from "sluice";

const TAGS = ["streams"];
const UNKNOWN_APPLICATION = "Unknown application";
const HEADLESS = "The server is headless (server.headless)";
const ZONED_DATE_TIME: JsonSchema = { type: "string", description: "ISO-8601 with offset and zone id", examples: ["2026-11-22T18:47:43.123Z[UTC]"] };
const integer: JsonSchema = { type: "integer" };
const string: JsonSchema = { type: "string" };
const strings = arrayOf(string);

export const APPLICATION_ID: ParameterSpec = { description: "The application.id of an application of this process", schema: { type: "string", examples: ["wordcount"] } };

const CONFIG_SCHEMA: JsonSchema = {
  type: "object",
  description: "Keys sorted; secret values read \"[hidden]\"",
  additionalProperties: { type: ["string", "number", "boolean"] },
};

export const INSTANCE_DESCRIPTION_SCHEMA: JsonSchema = objectSchema(
  {
    id: string,
    name: string,
    version: string,
    description: { type: ["string", "null"] },
    since: { ...ZONED_DATE_TIME, description: "When the instance (re)started" },
    state: objectSchema(
      {
        state: { enum: APPLICATION_STATES },
        since: { ...ZONED_DATE_TIME, description: "When it entered its state" },
        paused: { type: "boolean", enum: [true], description: "Present, true, while an operator has paused the instance (POST .../pause)" },
      },
      { optional: ["paused"] },
    ),
    config: CONFIG_SCHEMA,
    exception: { type: "string", description: "Present only after the instance recorded an error" },
    restarts: { type: "integer", description: "Present once the instance has restarted after a failure" },
  },
  { optional: ["exception", "restarts"] },
);

const TASK = objectSchema({ task_id: string, topic_partitions: arrayOf(objectSchema({ topic: string, partition: integer })) });

const STATUS_SCHEMA = objectSchema({
  id: string,
  state: { enum: APPLICATION_STATES },
  threads: arrayOf(
    objectSchema({
      name: string,
      state: string,
      active_tasks: arrayOf(TASK),
      standby_tasks: arrayOf(TASK),
      clients: objectSchema({ consumer_client_id: string, producer_client_ids: strings, admin_client_id: string }),
    }),
    "Empty unless the instance is RUNNING or REBALANCING",
  ),
});

const OFFSET: JsonSchema = { type: "integer", description: "-1 when not yet known" };

const OFFSETS_SCHEMA = objectSchema({
  group: string,
  consumers: arrayOf(
    objectSchema({
      client_id: string,
      stream_thread: string,
      positions: arrayOf(
        objectSchema({
          topic: string,
          partition: integer,
          consumed_offset: OFFSET,
          consumed_timestamp: OFFSET,
          committed_offset: OFFSET,
          committed_timestamp: OFFSET,
          log_end_offset: OFFSET,
          log_start_offset: OFFSET,
          lag: { type: "integer", description: "max(log_end_offset - (consumed_offset + 1), 0); -1 when unknown" },
        }),
      ),
    }),
    "Empty when the instance is not running",
  ),
});

const STORES_SCHEMA = objectSchema({
  id: string,
  stores: arrayOf(
    objectSchema({
      name: string,
      type: { enum: [...STORE_TYPES, null], description: "null while the store's type is not known" },
      partitions: arrayOf(
        objectSchema({
          partition: integer,
          changelog_topic: string,
          changelog_position: OFFSET,
          log_end_offset: integer,
          lag: integer,
          queryable: { type: "boolean" },
          restoring: { type: "boolean" },
          standby: { type: "boolean", description: "A standby task's warm copy of the partition (num.standby.replicas), not the active task's" },
          restore: objectSchema({ records_restored: integer, records_total: integer, rate: { type: "number", description: "Records restored per second" } }),
        }),
      ),
    }),
  ),
});

const METRIC_GROUPS_SCHEMA = arrayOf(
  objectSchema({
    name: string,
    metrics: arrayOf(
      objectSchema({
        name: string,
        description: string,
        tags: { type: "object", additionalProperties: string },
        value: { type: ["number", "string", "null"] },
      }),
    ),
  }),
  "Groups sorted by name, metrics by name then tags",
);

const read = (summary: string, description: string, schema: JsonSchema): RouteSpec => ({
  summary,
  tags: TAGS,
  pathParameters: { id: APPLICATION_ID },
  responses: { 200: { description, schema }, 404: UNKNOWN_APPLICATION },
});

export const STREAMS_READ_SPECS = {
  ids: { summary: "Ids of the applications running in this process, sorted", tags: TAGS, responses: { 200: { description: "Application ids", schema: strings } } },
  description: read("An application's instance description", "The instance description (docs/api.md#application-description)", INSTANCE_DESCRIPTION_SCHEMA),
  status: read("Tasks and threads of an application", "Status (docs/api.md#status)", STATUS_SCHEMA),
  config: read("An application's configuration", "A flat map (docs/api.md#configuration)", CONFIG_SCHEMA),
  offsets: read("An application's consumer offsets and lag", "Offsets (docs/api.md#offsets)", OFFSETS_SCHEMA),
  topology: read("An application's topology graph", "The topology graph (docs/api.md#topology-graph)", TOPOLOGY_SCHEMA),
  subscriptions: read("An application's event stream types", "Event stream types, sorted", strings),
  stores: read("An application's stores: changelog position, lag and restoration per local partition", "Stores", STORES_SCHEMA),
} satisfies Record<string, RouteSpec>;

/** The metrics routes; `formats` are those of the installed MetricsFormatters. */
export function metricsSpecs(formats: readonly string[], defaultFormat: string) {
  const queryParameters = {
    format: { description: `Rendering; ${defaultFormat} by default (prometheus: the text exposition format)`, schema: { enum: formats } },
    filter_empty: { description: "Present, whatever its value: leaves out metrics whose value is null, NaN, \"\" or 0, and groups left empty" },
  };
  const group: ParameterSpec = { description: "A metric group's name", schema: { type: "string", examples: ["stream-thread-metrics"] } };
  const name: ParameterSpec = { description: "A metric's name", schema: { type: "string", examples: ["process-rate"] } };
  const groups = (summary: string, missing?: string): RouteSpec => ({
    summary,
    tags: TAGS,
    pathParameters: { id: APPLICATION_ID, ...(missing ? { group } : {}), ...(missing === "name" ? { name } : {}) },
    queryParameters,
    responses: {
      200: { description: "Metric groups (docs/api.md#metrics) in the format asked for; shown here as the json format", schema: METRIC_GROUPS_SCHEMA },
      400: "An unknown format",
      404: missing ? `${UNKNOWN_APPLICATION}, or no such metric ${missing}` : UNKNOWN_APPLICATION,
    },
  });
  return {
    all: groups("An application's metrics"),
    group: groups("One metric group of an application", "group"),
    name: groups("The metrics of one name in a group", "name"),
    value: {
      summary: "The value of the first metric of that name in that group, as plain text",
      tags: TAGS,
      pathParameters: { id: APPLICATION_ID, group, name },
      responses: {
        200: { description: "The value: numbers as plain decimals (42, 0.5)", contentType: "text/plain; charset=utf-8", schema: string },
        404: `${UNKNOWN_APPLICATION}, or no such metric`,
      },
    },
  } satisfies Record<string, RouteSpec>;
}

export const STOP_BODY_SCHEMA = objectSchema({ cleanup: { type: "boolean", description: "Also delete the application's local state", default: false } }, { optional: ["cleanup"] });

const CLEANUP_BODY: BodySpec = { description: 'optional: {"cleanup": true} also deletes the local state', schema: STOP_BODY_SCHEMA, required: false };

const TIMED_OUT_RESPONSE: Record<number, string> = { 503: "The operation did not finish within server.operation.timeout.ms" };

/** A route that changes an instance and answers its description; `timed` when it waits at most server.operation.timeout.ms. */
const changing = (summary: string, description: string, timed: boolean): RouteSpec => ({
  summary,
  description,
  tags: TAGS,
  pathParameters: { id: APPLICATION_ID },
  responses: {
    200: { description: "The instance description once the operation is done", schema: INSTANCE_DESCRIPTION_SCHEMA },
    403: HEADLESS,
    404: UNKNOWN_APPLICATION,
    409: "The instance is shutting down (PENDING_SHUTDOWN)",
    ...(timed ? TIMED_OUT_RESPONSE : {}),
  },
});

export const DEPLOY_BODY_SCHEMA = objectSchema(
  {
    topology: { type: "string", minLength: 1, description: "The name of a topology (GET /api/v1/topologies)", examples: ["WordCount"] },
    version: { type: "string", minLength: 1, description: "A version of the topology, or latest (the default)" },
    config: {
      type: "object",
      description: "Must hold application.id, the new instance's id; other keys as applications.<id>.* takes them, plus the topology's own",
      examples: [{ "application.id": "wordcount-b" }],
    },
  },
  { optional: ["version"] },
);

export const DEPLOYMENT_SPECS = {
  deploy: {
    summary: "Deploy a new instance of a topology",
    description: "Starts it as a boot-time instance is started, and keeps it across restarts of Sluice.",
    tags: TAGS,
    body: { description: 'a JSON object such as {"topology": "WordCount", "config": {"application.id": "wordcount-b"}}', schema: DEPLOY_BODY_SCHEMA },
    responses: {
      201: { description: "Deployed and started", schema: objectSchema({ id: string }) },
      400: "An unknown topology or version, or a bad configuration key or value: the message names the field",
      403: HEADLESS,
      404: "No streams runtime is installed",
      409: "An instance with that application.id exists already",
      503: "The streams runtime is not running (starting or stopping)",
    },
  },
  terminate: {
    summary: "Terminate an instance: stop it and forget it",
    description: "It leaves every listing and the persisted deployments; with cleanup its local state is deleted too.",
    tags: TAGS,
    pathParameters: { id: APPLICATION_ID },
    body: CLEANUP_BODY,
    responses: {
      200: { description: "Terminated", schema: objectSchema({ id: string, cleanup: { type: "boolean" } }) },
      403: HEADLESS,
      404: UNKNOWN_APPLICATION,
      503: "The instance did not stop within server.operation.timeout.ms; it is being removed",
    },
  },
  pause: changing("Pause an instance", "It stops fetching and punctuating but keeps its group membership, partitions and queryable stores; state.paused is true.", false),
  resume: changing("Resume a paused instance", "It fetches and punctuates again from where it stopped.", false),
} satisfies Record<string, RouteSpec>;

export const THREAD_BODY_SCHEMA = objectSchema({ thread: { type: "string", minLength: 1, description: "The name of the stream thread to remove", examples: ["wordcount-StreamThread-2"] } }, { optional: ["thread"] });

const THREAD_ANSWER = objectSchema({ thread: { type: "string", examples: ["wordcount-StreamThread-2"] } });

const ADD_THREAD = changing(
  "Add a stream thread",
  "As KafkaStreams#addStreamThread: a new member of the application's group with its own consumer, producer and tasks, named <id>-StreamThread-N with the lowest free N; answers once it is joining the group.",
  false,
);

export const THREAD_SPECS = {
  add: { ...ADD_THREAD, responses: { ...ADD_THREAD.responses, 200: { description: "The new thread's name", schema: THREAD_ANSWER }, 409: "The instance is not RUNNING or REBALANCING" } },
  remove: {
    summary: "Remove a stream thread",
    description: "As KafkaStreams#removeStreamThread: the thread named in the body (or the first) leaves the group and its tasks move to the other members. The last thread is not removed: stop the instance instead.",
    tags: TAGS,
    pathParameters: { id: APPLICATION_ID },
    body: { description: 'optional: {"thread": name}', schema: THREAD_BODY_SCHEMA, required: false },
    responses: {
      200: { description: "The removed thread's name", schema: THREAD_ANSWER },
      400: "The body is not {\"thread\": name}",
      403: HEADLESS,
      404: "Unknown application, or the instance has no stream thread of that name",
      409: "The instance is not RUNNING or REBALANCING, or the thread is its last",
    },
  },
} satisfies Record<string, RouteSpec>;

export const LIFECYCLE_SPECS = {
  restart: changing("Restart an application", "Stops the instance, keeping its local state, and starts it again; answers once the new run has started.", true),
  stop: {
    ...changing("Stop an application", "Answers once the instance is NOT_RUNNING; it stays listed and can be restarted. Stopping a stopped instance changes nothing but, with cleanup, deletes its local state.", true),
    body: CLEANUP_BODY,
  },
} satisfies Record<string, RouteSpec>;
