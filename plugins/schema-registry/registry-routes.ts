/**
 * The Confluent Schema Registry REST routes under /schema-registry (docs/api.md#schema-registry). Answers carry
 * Confluent's media type; every error is Confluent's body `{"error_code", "message"}` with its status.
 */
import type { ServerResponse } from "node:http";
import { HttpError, jsonBody, sendText, type RouteRegistrar, type SluiceRequest } from "sluice";
import { compatibilityLevelOf } from "./compatibility";
import { invalidVersion, RegistryError, schemaNotFound } from "./registry-errors";
import { registerModeRoutes } from "./mode-routes";
import { DEFAULT_SCHEMA_TYPE, type DeletedFilter, type SchemaContent, type SubjectVersion } from "./registry-state";
import { REGISTRY_SPECS } from "./registry-route-specs";
import { referencedBy } from "./schema-references";
import { SCHEMA_TYPES } from "./schema-types";
import type { SchemaRegistry, SchemaRequest } from "./schema-registry";

export const REGISTRY_MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";
export const REGISTRY_PATH = "/schema-registry";
const MAX_VERSION = 2 ** 31 - 1;

type RegistryHandler = (req: SluiceRequest) => unknown;

/** A route that answers `handler`'s value as JSON, on state caught up with the topic; errors as Confluent's body. */
export const answerWith = (registry: SchemaRegistry) => (handler: RegistryHandler) => async (req: SluiceRequest, res: ServerResponse) => {
  const { status, body } = await attempt(async () => (await registry.caughtUp(), handler(req)));
  sendText(res, status, JSON.stringify(body), REGISTRY_MEDIA_TYPE);
};

export function registerRegistryRoutes(routes: RouteRegistrar, registry: SchemaRegistry): void {
  const { state } = registry;
  const answer = answerWith(registry);
  /** A schema's own text as the body, as Confluent's `/schema` routes answer; errors as everywhere. */
  const schemaText = (handler: (req: SluiceRequest) => SchemaContent) => async (req: SluiceRequest, res: ServerResponse) => {
    const { status, body } = await attempt(async () => (await registry.caughtUp(), handler(req)));
    sendText(res, status, status === 200 ? (body as SchemaContent).schema : JSON.stringify(body), REGISTRY_MEDIA_TYPE);
  };
  routes.get(`${REGISTRY_PATH}/schemas/types`, answer(() => [...SCHEMA_TYPES]), { spec: REGISTRY_SPECS.types });
  routes.get(`${REGISTRY_PATH}/subjects`, answer((req) => state.subjects(deletedFilterOf(req))), { spec: REGISTRY_SPECS.subjects });
  routes.get(`${REGISTRY_PATH}/subjects/:subject/versions`, answer((req) => state.versions(req.params.subject, deletedFilterOf(req)).map((v) => v.version)), { spec: REGISTRY_SPECS.versions });
  routes.post(`${REGISTRY_PATH}/subjects/:subject/versions`, answer((req) => registry.register(req.params.subject, requestOf(req))), { spec: REGISTRY_SPECS.register });
  routes.get(`${REGISTRY_PATH}/subjects/:subject/versions/:version`, answer((req) => versionJson(registry.formatted(state.version(req.params.subject, versionOf(req.params.version), withDeleted(req)), formatOf(req)))), {
    spec: REGISTRY_SPECS.version,
  });
  // A lookup changes nothing: readers may make it, though it is a POST.
  routes.post(`${REGISTRY_PATH}/subjects/:subject`, answer((req) => versionJson(registry.formatted(registry.lookup(req.params.subject, requestOf(req), withDeleted(req)), formatOf(req)))), { role: "viewer", spec: REGISTRY_SPECS.lookup });
  routes.get(`${REGISTRY_PATH}/subjects/:subject/versions/:version/schema`, schemaText((req) => registry.formatted(state.version(req.params.subject, versionOf(req.params.version), withDeleted(req)), formatOf(req))), {
    spec: REGISTRY_SPECS.versionSchema,
  });
  routes.get(`${REGISTRY_PATH}/subjects/:subject/versions/:version/referencedby`, answer((req) => referencedBy(state, state.version(req.params.subject, versionOf(req.params.version)))), {
    spec: REGISTRY_SPECS.referencedBy,
  });
  routes.get(`${REGISTRY_PATH}/schemas/ids/:id`, answer((req) => schemaJson(registry.formatted(state.schemaById(idOf(req.params.id)), formatOf(req)))), { spec: REGISTRY_SPECS.schemaById });
  routes.get(`${REGISTRY_PATH}/schemas/ids/:id/schema`, schemaText((req) => registry.formatted(state.schemaById(idOf(req.params.id)), formatOf(req))), { spec: REGISTRY_SPECS.schemaTextById });
  routes.get(`${REGISTRY_PATH}/schemas/ids/:id/subjects`, answer((req) => [...new Set(state.usesOf(idOf(req.params.id)).map((use) => use.subject))]), { spec: REGISTRY_SPECS.subjectsById });
  routes.get(`${REGISTRY_PATH}/schemas/ids/:id/versions`, answer((req) => state.usesOf(idOf(req.params.id))), { spec: REGISTRY_SPECS.versionsById });

  routes.get(`${REGISTRY_PATH}/config`, answer(() => ({ compatibilityLevel: registry.levelOf(null) })), { spec: REGISTRY_SPECS.globalConfig });
  routes.put(`${REGISTRY_PATH}/config`, answer(async (req) => ({ compatibility: await registry.setLevel(null, levelIn(req)) })), { role: "admin", spec: REGISTRY_SPECS.setGlobalConfig });
  routes.get(`${REGISTRY_PATH}/config/:subject`, answer((req) => ({ compatibilityLevel: registry.subjectLevel(req.params.subject, req.query.defaultToGlobal === "true") })), {
    spec: REGISTRY_SPECS.subjectConfig,
  });
  routes.put(`${REGISTRY_PATH}/config/:subject`, answer(async (req) => ({ compatibility: await registry.setLevel(req.params.subject, levelIn(req)) })), {
    role: "admin",
    spec: REGISTRY_SPECS.setSubjectConfig,
  });
  routes.delete(`${REGISTRY_PATH}/config`, answer(async () => ({ compatibilityLevel: await registry.deleteLevel(null) })), { role: "admin", spec: REGISTRY_SPECS.deleteGlobalConfig });
  routes.delete(`${REGISTRY_PATH}/config/:subject`, answer(async (req) => ({ compatibilityLevel: await registry.deleteLevel(req.params.subject) })), {
    role: "admin",
    spec: REGISTRY_SPECS.deleteSubjectConfig,
  });
  routes.delete(`${REGISTRY_PATH}/subjects/:subject`, answer((req) => registry.deleteSubject(req.params.subject, isPermanent(req))), {
    role: "admin",
    spec: REGISTRY_SPECS.deleteSubject,
  });
  routes.delete(`${REGISTRY_PATH}/subjects/:subject/versions/:version`, answer((req) => registry.deleteVersion(req.params.subject, versionOf(req.params.version), isPermanent(req))), {
    role: "admin",
    spec: REGISTRY_SPECS.deleteVersion,
  });
  // A check changes nothing: readers may make it, though it is a POST.
  const compatibilityAnswer = (check: (req: SluiceRequest, verbose: boolean) => string[]) =>
    answer((req) => {
      const verbose = req.query.verbose === "true";
      const messages = check(req, verbose);
      return { is_compatible: messages.length === 0, ...(verbose ? { messages } : {}) };
    });
  routes.post(
    `${REGISTRY_PATH}/compatibility/subjects/:subject/versions/:version`,
    compatibilityAnswer((req, verbose) => registry.compatibilityWith(req.params.subject, versionOf(req.params.version), requestOf(req), verbose)),
    { role: "viewer", spec: REGISTRY_SPECS.compatibility },
  );
  routes.post(
    `${REGISTRY_PATH}/compatibility/subjects/:subject/versions`,
    compatibilityAnswer((req, verbose) => registry.compatibilityWithSubject(req.params.subject, requestOf(req), verbose)),
    { role: "viewer", spec: REGISTRY_SPECS.compatibilityWithSubject },
  );
  registerModeRoutes(routes, registry, answer);
}

const withDeleted = (req: SluiceRequest) => req.query.deleted === "true";

/** Confluent's `deleted` and `deletedOnly` parameters (both: deleted only). */
const deletedFilterOf = (req: SluiceRequest): DeletedFilter => (req.query.deletedOnly === "true" ? "deletedOnly" : withDeleted(req) ? "withDeleted" : "live");

/** Confluent's `format` parameter: how a schema's text is answered (a Protobuf schema's `serialized` descriptor). */
const formatOf = (req: SluiceRequest) => (typeof req.query.format === "string" ? req.query.format : undefined);

const isPermanent = (req: SluiceRequest) => req.query.permanent === "true";

/** The level in a `PUT /config` body `{"compatibility": level}`; 42203 when it is not one. */
const levelIn = (req: SluiceRequest) => compatibilityLevelOf(((jsonBody(req) ?? {}) as { compatibility?: unknown }).compatibility);

/** The handler's answer, or the registry error it ended with (a malformed body keeps its status as its code). */
async function attempt(handler: () => unknown): Promise<{ status: number; body: unknown }> {
  try {
    return { status: 200, body: await handler() };
  } catch (error) {
    if (error instanceof RegistryError) return { status: error.status, body: { error_code: error.errorCode, message: error.message } };
    if (error instanceof HttpError) return { status: error.status, body: { error_code: error.status, message: error.message } };
    throw error;
  }
}

const requestOf = (req: SluiceRequest) => (jsonBody(req) ?? {}) as SchemaRequest;

/** A version in a path: 1 … 2^31-1, `latest`, or -1 (Confluent's other name for latest); 42202 otherwise. */
function versionOf(text: string): number | "latest" {
  if (text === "latest" || text === "-1") return "latest";
  const version = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(version >= 1 && version <= MAX_VERSION)) throw invalidVersion(text);
  return version;
}

function idOf(text: string): number {
  const id = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id)) throw schemaNotFound(`Schema ${text} not found`);
  return id;
}

/** A schema's JSON as Confluent writes it: schemaType only when it is not AVRO, references only when there are some. */
function schemaJson(content: SchemaContent) {
  return {
    ...(content.schemaType === DEFAULT_SCHEMA_TYPE ? {} : { schemaType: content.schemaType }),
    ...(content.references.length > 0 ? { references: content.references } : {}),
    schema: content.schema,
  };
}

function versionJson(version: SubjectVersion) {
  return { subject: version.subject, version: version.version, id: version.id, ...schemaJson(version) };
}
