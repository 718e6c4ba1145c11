/**
 * The registry's operations over its state and its topic: registering (the same schema under a subject answers its
 * existing id and version; a schema the subject's compatibility level refuses is 409), looking up, compatibility levels
 * and checks. Writes from this instance go one at a time, so two registrations never take the same id or version.
 */
import { type CompatibilityLevel, DEFAULT_COMPATIBILITY, incompatibilities, isTransitive } from "./compatibility";
import {
  incompatibleSchema,
  invalidSchema,
  schemaNotFound,
  subjectCompatibilityNotConfigured,
  subjectNotFound,
  subjectNotSoftDeleted,
  subjectSoftDeleted,
  versionNotFound,
  versionNotSoftDeleted,
  versionSoftDeleted,
} from "./registry-errors";
import { configRecord, DEFAULT_SCHEMA_TYPE, RegistryState, schemaRecord, tombstoneRecord, type SchemaContent, type SubjectVersion } from "./registry-state";
import { assertNotReferenced, referencesOf, resolveSchema } from "./schema-references";
import { canonicalSchema, schemaTypeOf } from "./schema-types";
import type { SchemasTopic } from "./schemas-topic";

/** What a registration or lookup request carries (Confluent's RegisterSchemaRequest). */
export interface SchemaRequest {
  schema?: unknown;
  schemaType?: unknown;
  references?: unknown;
}

export class SchemaRegistry {
  readonly state = new RegistryState();
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly topic: SchemasTopic) {}

  /** Resolves once the state holds every record on the topic now: what an answer must see. */
  caughtUp(): Promise<void> {
    return this.topic.catchUp();
  }

  /** The id of `request`'s schema under `subject`, registering it as the subject's next version when it is new. */
  register(subject: string, request: SchemaRequest): Promise<{ id: number }> {
    return this.serialized(async () => {
      const content = this.contentOf(request);
      const existing = this.state.findInSubject(subject, content);
      if (existing !== undefined) return { id: existing.id };
      const level = this.levelOf(subject);
      const earlier = this.state.liveVersionsIfAny(subject);
      const against = isTransitive(level) ? earlier : earlier.slice(-1);
      const details = against.flatMap((version) => this.incompatibilities(level, content, version));
      if (details.length > 0) throw incompatibleSchema(subject, details);
      const stored: SubjectVersion = { subject, version: this.state.nextVersion(subject), id: this.state.idFor(content), ...content, deleted: false };
      const { key, value } = schemaRecord(stored);
      await this.topic.append(key, value);
      return { id: stored.id };
    });
  }

  /** Why `request`'s schema may not follow `version` of `subject` at the subject's level; empty when it may. */
  compatibilityWith(subject: string, version: number | "latest", request: SchemaRequest): string[] {
    return this.incompatibilities(this.levelOf(subject), this.contentOf(request), this.state.version(subject, version));
  }

  /** Why `candidate` may not follow `existing` at `level`: none across schema types, which no reader bridges. */
  private incompatibilities(level: CompatibilityLevel, candidate: SchemaContent, existing: SchemaContent): string[] {
    if (level === "NONE") return [];
    if (candidate.schemaType !== existing.schemaType) return [`the schema type changed from ${existing.schemaType} to ${candidate.schemaType}`];
    return incompatibilities(level, schemaTypeOf(candidate.schemaType), resolveSchema(this.state, candidate), resolveSchema(this.state, existing));
  }

  /** The level that applies to `subject`: its own, else the global one, else BACKWARD. */
  levelOf(subject: string | null): CompatibilityLevel {
    return (subject === null ? undefined : this.state.compatibility(subject)) ?? this.state.compatibility(null) ?? DEFAULT_COMPATIBILITY;
  }

  /** The level set for `subject` itself: 40408 when it has none and `defaultToGlobal` is not asked for. */
  subjectLevel(subject: string, defaultToGlobal: boolean): CompatibilityLevel {
    const own = this.state.compatibility(subject);
    if (own === undefined && !defaultToGlobal) throw subjectCompatibilityNotConfigured(subject);
    return own ?? this.levelOf(null);
  }

  /** Sets the level of `subject` (null: the global one), durably in the topic. */
  setLevel(subject: string | null, level: CompatibilityLevel): Promise<CompatibilityLevel> {
    return this.serialized(async () => {
      const { key, value } = configRecord(subject, level);
      await this.topic.append(key, value);
      return level;
    });
  }

  /** Removes the level of `subject`, answering the one it had: 40401 for a subject with neither versions nor level. */
  deleteLevel(subject: string): Promise<CompatibilityLevel> {
    return this.serialized(async () => {
      const own = this.state.compatibility(subject);
      if (own === undefined) this.state.liveVersions(subject);
      const { key, value } = configRecord(subject, null);
      await this.topic.append(key, value);
      return own ?? this.levelOf(null);
    });
  }

  /**
   * Deletes every version of `subject`, answering their numbers: soft (each kept, marked deleted; 40404 when all
   * already are), or with `permanent` for good (40405 while one is live). 40401 for a subject with no version left.
   */
  deleteSubject(subject: string, permanent: boolean): Promise<number[]> {
    return this.serialized(async () => {
      const all = this.state.allVersions(subject);
      if (all.length === 0) throw subjectNotFound(subject);
      const live = all.filter((v) => !v.deleted);
      if (!permanent && live.length === 0) throw subjectSoftDeleted(subject);
      if (permanent && live.length > 0) throw subjectNotSoftDeleted(subject);
      const doomed = permanent ? all : live;
      for (const version of doomed) assertNotReferenced(this.state, version);
      for (const version of doomed) await this.removeVersion(version, permanent);
      return doomed.map((v) => v.version);
    });
  }

  /**
   * Deletes `version` of `subject` (`latest`: its newest live one, or with `permanent` its newest), answering its
   * number: soft (40406 when it already is), or with `permanent` for good (40407 when it was not soft-deleted first).
   */
  deleteVersion(subject: string, version: number | "latest", permanent: boolean): Promise<number> {
    return this.serialized(async () => {
      const all = this.state.allVersions(subject);
      if (all.length === 0) throw subjectNotFound(subject);
      const candidates = permanent ? all : all.filter((v) => !v.deleted);
      const found = version === "latest" ? candidates[candidates.length - 1] : all.find((v) => v.version === version);
      if (found === undefined) throw versionNotFound(subject, version as number);
      if (!permanent && found.deleted) throw versionSoftDeleted(subject, found.version);
      if (permanent && !found.deleted) throw versionNotSoftDeleted(subject, found.version);
      assertNotReferenced(this.state, found);
      await this.removeVersion(found, permanent);
      return found.version;
    });
  }

  private removeVersion(version: SubjectVersion, permanent: boolean): Promise<void> {
    const { key, value } = permanent ? tombstoneRecord(version) : schemaRecord({ ...version, deleted: true });
    return this.topic.append(key, value);
  }

  /** Runs `write` after every earlier write of this instance, on state caught up with the topic. */
  private serialized<T>(write: () => Promise<T>): Promise<T> {
    const result = this.writes.then(async () => (await this.caughtUp(), write()));
    this.writes = result.catch(() => undefined);
    return result;
  }

  /** The version of `subject` holding `request`'s schema: 40401 without the subject, 40403 without the schema. */
  lookup(subject: string, request: SchemaRequest): SubjectVersion {
    const content = this.contentOf(request);
    this.state.liveVersions(subject);
    const found = this.state.findInSubject(subject, content);
    if (found === undefined) throw schemaNotFound();
    return found;
  }

  /** The request's schema, checked (its references resolved) and in its canonical text: 42201 when it is missing or does not parse. */
  private contentOf(request: SchemaRequest): SchemaContent {
    if (typeof request !== "object" || request === null) throw invalidSchema("the request body must be a JSON object");
    if (typeof request.schema !== "string") throw invalidSchema("'schema' must be a string");
    const schemaType = request.schemaType === undefined || request.schemaType === null ? DEFAULT_SCHEMA_TYPE : request.schemaType;
    if (typeof schemaType !== "string") throw invalidSchema("'schemaType' must be a string");
    schemaTypeOf(schemaType);
    const references = referencesOf(request.references);
    const resolved = resolveSchema(this.state, { schemaType, schema: request.schema, references });
    return { schemaType, schema: canonicalSchema(schemaType, resolved), references };
  }
}
