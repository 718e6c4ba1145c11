/** What the /schema-registry routes take and answer, in Confluent's media type; errors as Confluent's body. */
import { arrayOf, objectSchema, type JsonSchema, type ParameterSpec, type RouteSpec } from "sluice";

const TAGS = ["schema-registry"];
const CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
const string: JsonSchema = { type: "string" };
const integer: JsonSchema = { type: "integer" };
const SUBJECT: ParameterSpec = { description: "A subject (by the topic name strategy, `<topic>-key` or `<topic>-value`)", schema: { type: "string", examples: ["orders-value"] } };
const VERSION: ParameterSpec = { description: "A version 1 … 2^31-1, or `latest` (also -1)", schema: { type: "string", examples: ["latest"] } };
const ID: ParameterSpec = { description: "A schema id", schema: { type: "string", examples: ["1"] } };
const REFERENCES = arrayOf(objectSchema({ name: string, subject: string, version: integer }));
const SCHEMA_TYPE: JsonSchema = { type: "string", description: "AVRO when left out" };

const SCHEMA = objectSchema({ schemaType: SCHEMA_TYPE, references: REFERENCES, schema: string }, { optional: ["schemaType", "references"] });
const SUBJECT_VERSION = objectSchema(
  { subject: string, version: integer, id: integer, schemaType: SCHEMA_TYPE, references: REFERENCES, schema: string },
  { optional: ["schemaType", "references"] },
);
const SCHEMA_REQUEST =
  "A JSON object {schema, schemaType?, references?}; the router leaves it unchecked so that a bad one is answered with Confluent's error codes";

const ok = (description: string, schema: JsonSchema) => ({ description, contentType: CONTENT_TYPE, schema });
const SUBJECT_NOT_FOUND = "40401: the subject has no version";
const ID_NOT_FOUND = "40403: no schema has the id";
const RAW_SCHEMA = { description: "The schema's text as the whole body (an Avro schema's JSON, a Protobuf schema's .proto text)", contentType: CONTENT_TYPE };

const LEVEL: JsonSchema = { type: "string", enum: ["BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE", "NONE"] };
const DELETED = { description: "`true`: soft-deleted ones too", schema: { type: "boolean" } } satisfies ParameterSpec;
const FORMAT = {
  description:
    "How the schema is answered: for PROTOBUF, `serialized` (the base64 of its FileDescriptorProto) or `ignore_extensions` (the text without extend blocks and extension ranges); left out, or any other value, the canonical text",
  schema: { type: "string", examples: ["serialized"] },
} satisfies ParameterSpec;
const LISTING_FILTERS = { deleted: DELETED, deletedOnly: { description: "`true`: soft-deleted ones only", schema: { type: "boolean" } } } satisfies Record<string, ParameterSpec>;
const PERMANENT = { description: "`true`: remove for good what was soft-deleted", schema: { type: "boolean" } } satisfies ParameterSpec;
const LEVEL_ANSWER = ok("The compatibility level", objectSchema({ compatibilityLevel: LEVEL }));
const SET_LEVEL = {
  description: "A JSON object {compatibility}; the router leaves it unchecked so that a bad level is answered with Confluent's 42203",
  tags: TAGS,
  responses: { 200: ok("The level set", objectSchema({ compatibility: LEVEL })), 422: "42203: not a compatibility level; 42205: read-only mode" },
};

const VERBOSE = { description: "`true`: also the reasons it may not", schema: { type: "boolean" } } satisfies ParameterSpec;
const COMPATIBILITY_ANSWER = objectSchema({ is_compatible: { type: "boolean" }, messages: arrayOf(string) }, { optional: ["messages"] });

export const REGISTRY_SPECS = {
  subjects: { summary: "The subjects with a live version", tags: TAGS, queryParameters: LISTING_FILTERS, responses: { 200: ok("Subjects, sorted", arrayOf(string)) } },
  versions: {
    summary: "A subject's live versions",
    tags: TAGS,
    pathParameters: { subject: SUBJECT },
    queryParameters: LISTING_FILTERS,
    responses: { 200: ok("Version numbers, ascending", arrayOf(integer)), 404: SUBJECT_NOT_FOUND },
  },
  register: {
    summary: "Register a schema under a subject (the same schema answers its existing id)",
    description: SCHEMA_REQUEST,
    tags: TAGS,
    pathParameters: { subject: SUBJECT },
    responses: {
      200: ok("The schema's id", objectSchema({ id: integer })),
      409: "409: the subject's compatibility level refuses the schema",
      422: "42201: the schema does not parse as its type; 42205: the subject's mode refuses it (read-only; an id outside IMPORT, or none in it)",
    },
  },
  version: {
    summary: "One version of a subject",
    tags: TAGS,
    pathParameters: { subject: SUBJECT, version: VERSION },
    queryParameters: { deleted: DELETED, format: FORMAT },
    responses: { 200: ok("The version", SUBJECT_VERSION), 404: `${SUBJECT_NOT_FOUND}; 40402: no such version`, 422: "42202: not a version" },
  },
  lookup: {
    summary: "Which version of a subject holds a schema",
    description: SCHEMA_REQUEST,
    tags: TAGS,
    pathParameters: { subject: SUBJECT },
    queryParameters: { deleted: DELETED, format: FORMAT },
    responses: { 200: ok("The version", SUBJECT_VERSION), 404: `${SUBJECT_NOT_FOUND}; 40403: the subject has no such schema`, 422: "42201: the schema does not parse" },
  },
  schemaById: {
    summary: "A schema by its id",
    tags: TAGS,
    pathParameters: { id: ID },
    queryParameters: { format: FORMAT },
    responses: { 200: ok("The schema", SCHEMA), 404: ID_NOT_FOUND },
  },
  types: { summary: "The schema types this registry takes", tags: TAGS, responses: { 200: ok("Schema types", arrayOf(string)) } },
  versionSchema: {
    summary: "One version's schema text alone",
    tags: TAGS,
    pathParameters: { subject: SUBJECT, version: VERSION },
    queryParameters: { deleted: DELETED, format: FORMAT },
    responses: { 200: RAW_SCHEMA, 404: `${SUBJECT_NOT_FOUND}; 40402: no such version`, 422: "42202: not a version" },
  },
  referencedBy: {
    summary: "The ids of the schemas that reference one version of a subject",
    tags: TAGS,
    pathParameters: { subject: SUBJECT, version: VERSION },
    responses: { 200: ok("Schema ids, ascending", arrayOf(integer)), 404: `${SUBJECT_NOT_FOUND}; 40402: no such version`, 422: "42202: not a version" },
  },
  schemaTextById: { summary: "A schema's text alone, by its id", tags: TAGS, pathParameters: { id: ID }, queryParameters: { format: FORMAT }, responses: { 200: RAW_SCHEMA, 404: ID_NOT_FOUND } },
  subjectsById: { summary: "The subjects that hold a schema", tags: TAGS, pathParameters: { id: ID }, responses: { 200: ok("Subjects, sorted", arrayOf(string)), 404: ID_NOT_FOUND } },
  versionsById: {
    summary: "The subject versions that hold a schema",
    tags: TAGS,
    pathParameters: { id: ID },
    responses: { 200: ok("By subject, then version", arrayOf(objectSchema({ subject: string, version: integer }))), 404: ID_NOT_FOUND },
  },
  globalConfig: { summary: "The global compatibility level (BACKWARD unless set)", tags: TAGS, responses: { 200: LEVEL_ANSWER } },
  setGlobalConfig: { summary: "Set the global compatibility level", ...SET_LEVEL },
  deleteGlobalConfig: {
    summary: "Remove the global compatibility level (BACKWARD applies again)",
    tags: TAGS,
    responses: { 200: ok("The global level it was (BACKWARD when none was set)", objectSchema({ compatibilityLevel: LEVEL })) },
  },
  subjectConfig: {
    summary: "A subject's own compatibility level",
    tags: TAGS,
    pathParameters: { subject: SUBJECT },
    queryParameters: { defaultToGlobal: { description: "`true`: the global level when the subject has none of its own", schema: { type: "boolean" } } },
    responses: { 200: LEVEL_ANSWER, 404: "40408: the subject has no level of its own" },
  },
  setSubjectConfig: { summary: "Set a subject's compatibility level", pathParameters: { subject: SUBJECT }, ...SET_LEVEL },
  deleteSubjectConfig: {
    summary: "Remove a subject's own compatibility level (the global one applies again)",
    tags: TAGS,
    pathParameters: { subject: SUBJECT },
    responses: { 200: ok("The level it had", objectSchema({ compatibilityLevel: LEVEL })), 404: SUBJECT_NOT_FOUND },
  },
  deleteSubject: {
    summary: "Delete every version of a subject: soft, or for good with permanent=true after a soft delete",
    tags: TAGS,
    pathParameters: { subject: SUBJECT },
    queryParameters: { permanent: PERMANENT },
    responses: {
      200: ok("The versions deleted", arrayOf(integer)),
      404: `${SUBJECT_NOT_FOUND}; 40404: already soft-deleted; 40405: permanent before a soft delete`,
      422: "42205: read-only mode; 42206: another schema references one of its versions",
    },
  },
  deleteVersion: {
    summary: "Delete one version of a subject: soft, or for good with permanent=true after a soft delete (`latest` is the newest live version, also with permanent=true)",
    tags: TAGS,
    pathParameters: { subject: SUBJECT, version: VERSION },
    queryParameters: { permanent: PERMANENT },
    responses: {
      200: ok("The version deleted", integer),
      404: `${SUBJECT_NOT_FOUND}; 40402: no such version; 40406: already soft-deleted; 40407: permanent before a soft delete`,
      422: "42202: not a version; 42205: read-only mode; 42206: another schema references it",
    },
  },
  compatibility: {
    summary: "Whether a schema may follow a version of a subject at the subject's compatibility level",
    description: SCHEMA_REQUEST,
    tags: TAGS,
    pathParameters: { subject: SUBJECT, version: VERSION },
    queryParameters: { verbose: VERBOSE },
    responses: {
      200: ok("The answer", COMPATIBILITY_ANSWER),
      404: "40402: no such version (`latest` of a subject with no live version is compatible)",
      422: "42201: the schema does not parse (with verbose: is_compatible false and the reason); 42202: not a version",
    },
  },
  compatibilityWithSubject: {
    summary: "Whether a schema may be registered under a subject: checked as a registration checks it (every live version at a transitive level, else the latest)",
    description: SCHEMA_REQUEST,
    tags: TAGS,
    pathParameters: { subject: SUBJECT },
    queryParameters: { verbose: VERBOSE },
    responses: {
      200: ok("The answer", COMPATIBILITY_ANSWER),
      422: "42201: the schema does not parse (with verbose: is_compatible false and the reason)",
    },
  },
} satisfies Record<string, RouteSpec>;
