/** What the /schema-registry/mode routes take and answer, in Confluent's media type; errors as Confluent's body. */
import { objectSchema, type JsonSchema, type ParameterSpec, type RouteSpec } from "sluice";
import { MODES } from "./modes";

const TAGS = ["schema-registry"];
const CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
const MODE: JsonSchema = { type: "string", enum: [...MODES] };
const MODE_ANSWER = { description: "The mode", contentType: CONTENT_TYPE, schema: objectSchema({ mode: MODE }) };
const SUBJECT: ParameterSpec = { description: "A subject", schema: { type: "string", examples: ["orders-value"] } };
const DEFAULT_TO_GLOBAL = { description: "`true`: the global mode when the subject has none of its own", schema: { type: "boolean" } } satisfies ParameterSpec;
const SET_MODE = {
  description: "A JSON object {mode}; the router leaves it unchecked so that a bad mode is answered with Confluent's 42204",
  tags: TAGS,
  queryParameters: { force: { description: "`true`: enter IMPORT even though subjects have live versions", schema: { type: "boolean" } } satisfies ParameterSpec },
  responses: { 200: MODE_ANSWER, 422: "42204: not a mode; 42205: IMPORT while subjects have live versions (without force)" },
};

export const MODE_SPECS = {
  globalMode: { summary: "The global mode (READWRITE unless set)", tags: TAGS, responses: { 200: MODE_ANSWER } },
  setGlobalMode: { summary: "Set the global mode", ...SET_MODE },
  subjectMode: {
    summary: "A subject's own mode",
    tags: TAGS,
    pathParameters: { subject: SUBJECT },
    queryParameters: { defaultToGlobal: DEFAULT_TO_GLOBAL },
    responses: { 200: MODE_ANSWER, 404: "40409: the subject has no mode of its own" },
  },
  setSubjectMode: { summary: "Set a subject's mode", pathParameters: { subject: SUBJECT }, ...SET_MODE },
  deleteGlobalMode: {
    summary: "Remove the global mode (READWRITE applies again)",
    tags: TAGS,
    queryParameters: { recursive: { description: "`true`: remove every subject's own mode too", schema: { type: "boolean" } } },
    responses: { 200: { ...MODE_ANSWER, description: "The global mode it had (READWRITE when none was set)" } },
  },
  deleteSubjectMode: {
    summary: "Remove a subject's own mode (the global one applies again)",
    tags: TAGS,
    pathParameters: { subject: SUBJECT },
    queryParameters: { recursive: { description: "`true`: answer 200 with a null mode when the subject has none, as Confluent's registry does", schema: { type: "boolean" } } },
    responses: { 200: { ...MODE_ANSWER, description: "The mode it had" }, 404: "40401: the subject has no mode of its own" },
  },
} satisfies Record<string, RouteSpec>;
