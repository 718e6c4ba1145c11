/**
 * The registry's operations over its state and its topic: registering (the same schema under a subject answers its
 * existing id and version; a schema the subject's compatibility level refuses is 409), looking up, compatibility levels
 * and checks, modes. Writes from this instance go one at a time, so two registrations never take the same id or version.
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
import { isReadOnly, type Mode, modeRecord, operationNotPermitted, subjectModeNotConfigured } from "./modes";
import { configRecord, DEFAULT_SCHEMA_TYPE, RegistryState, schemaRecord, tombstoneRecord, type SchemaContent, type SubjectVersion } from "./registry-state";
import { assertNotReferenced, referencesOf, resolveSchema } from "./schema-references";
import { canonicalSchema, schemaTypeOf } from "./schema-types";
import type { SchemasTopic } from "./schemas-topic";

/** What a registration or lookup request carries (Confluent's RegisterSchemaRequest); `id` and `version` in IMPORT mode. */
export interface SchemaRequest {
  schema?: unknown;
  schemaType?: unknown;
  references?: unknown;
  id?: unknown;
  version?: unknown;
}

export class SchemaRegistry {
  readonly state = new RegistryState();
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly topic: SchemasTopic) {}

  /** Resolves once the state holds every record on the topic now: what an answer must see. */
  caughtUp(): Promise<void> {
    return this.topic.catchUp();
  }

  /**
   * The id of `request`'s schema under `subject`, registering it as the subject's next version when it is new. In
   * IMPORT mode the request names its id (and may name its version) and no compatibility check is made; a request
   * naming an id outside IMPORT mode, or none in it, is 42205, as is any registration in a read-only mode.
   */
  register(subject: string, request: SchemaRequest): Promise<{ id: number }> {
    const wanted = importedIdentity(request);
    return this.serialized(async () => {
      const content = this.contentOf(request);
      const mode = this.modeOf(subject);
      this.refuseReadOnly(subject);
      if (wanted.id !== undefined && mode !== "IMPORT") throw operationNotPermitted(`Subject '${subject}' is not in import mode`);
      if (wanted.id === undefined && mode !== "READWRITE") throw operationNotPermitted(`Subject '${subject}' is not in read-write mode`);
      const existing = this.state.findInSubject(subject, content);
      if (existing !== undefined && wanted.version === undefined && (wanted.id === undefined || wanted.id === existing.id)) return { id: existing.id };
      const nextVersion = this.state.nextVersion(subject);
      if (wanted.id === undefined) {
        if (wanted.version !== undefined && wanted.version !== nextVersion) throw invalidSchema(`version ${wanted.version} is not one more than the subject's previous version`);
        const details = this.incompatibilitiesWithEarlier(subject, content);
        if (details.length > 0) throw incompatibleSchema(subject, details);
      } else if (this.state.idHeldByOther(wanted.id, content)) {
        throw operationNotPermitted(`Overwrite new schema with id ${wanted.id} is not permitted: the id holds another schema`);
      }
      const id = wanted.id ?? this.state.idFor(content);
      const stored: SubjectVersion = { subject, version: wanted.version ?? nextVersion, id, ...content, deleted: false };
      const { key, value } = schemaRecord(stored);
      await this.topic.append(key, value);
      return { id };
    });
  }

  /**
   * Why `request`'s schema may not follow `version` of `subject` at the subject's level; empty when it may, and when
   * `latest` is asked of a subject with no live version (nothing to be incompatible with); any other missing version
   * is 40402, the subject's or not. A schema that does not parse is 42201, or with `verbose` the answer's one message.
   */
  compatibilityWith(subject: string, version: number | "latest", request: SchemaRequest, verbose: boolean): string[] {
    return this.checked(verbose, (content) => {
      const live = this.state.liveVersionsIfAny(subject);
      const against = version === "latest" ? live.slice(-1) : live.filter((v) => v.version === version);
      if (against.length === 0 && version !== "latest") throw versionNotFound(subject, version);
      return against.flatMap((earlier) => this.incompatibilities(this.levelOf(subject), content, earlier));
    }, request);
  }

  /** Why `request`'s schema may not be registered under `subject` at its level, as a registration would check it. */
  compatibilityWithSubject(subject: string, request: SchemaRequest, verbose: boolean): string[] {
    return this.checked(verbose, (content) => this.incompatibilitiesWithEarlier(subject, content), request);
  }

  private checked(verbose: boolean, check: (content: SchemaContent) => string[], request: SchemaRequest): string[] {
    let content: SchemaContent;
    try {
      content = this.contentOf(request);
    } catch (error) {
      if (verbose) return [(error as Error).message];
      throw error;
    }
    return check(content);
  }

  /** Against every live version at a transitive level, else against the latest one. */
  private incompatibilitiesWithEarlier(subject: string, content: SchemaContent): string[] {
    const level = this.levelOf(subject);
    const earlier = this.state.liveVersionsIfAny(subject);
    const against = isTransitive(level) ? earlier : earlier.slice(-1);
    return against.flatMap((version) => this.incompatibilities(level, content, version));
  }

  /** Why `candidate` may not follow `existing` at `level`: none across schema types, which no reader bridges. */
  private incompatibilities(level: CompatibilityLevel, candidate: SchemaContent, existing: SchemaContent): string[] {
    if (level === "NONE") return [];
    if (candidate.schemaType !== existing.schemaType) return [`the schema type changed from ${existing.schemaType} to ${candidate.schemaType}`];
    return incompatibilities(level, schemaTypeOf(candidate.schemaType), resolveSchema(this.state, candidate), resolveSchema(this.state, existing));
  }

  /** The mode that applies to `subject` (null: the global one). */
  modeOf(subject: string | null): Mode {
    return this.state.modes.inScope(subject);
  }

  /** The mode set for `subject` itself: 40409 when it has none and `defaultToGlobal` is not asked for. */
  subjectMode(subject: string, defaultToGlobal: boolean): Mode {
    const own = this.state.modes.own(subject);
    if (own === undefined && !defaultToGlobal) throw subjectModeNotConfigured(subject);
    return own ?? this.modeOf(null);
  }

  /**
   * Sets the mode of `subject` (null: the global one), durably in the topic. Entering IMPORT needs the subjects it
   * covers to have no live version (42205 unless `force`); their soft-deleted versions are then removed for good, so
   * imported versions and ids cannot meet them.
   */
  setMode(subject: string | null, mode: Mode, force: boolean): Promise<Mode> {
    return this.serialized(async () => {
      if (mode === "IMPORT" && this.modeOf(subject) !== "IMPORT" && !force) {
        const covered = subject === null ? this.state.subjects("withDeleted") : [subject];
        if (covered.some((s) => this.state.liveVersionsIfAny(s).length > 0)) throw operationNotPermitted("Cannot import since found existing subjects");
        for (const version of covered.flatMap((s) => this.state.allVersions(s))) await this.removeVersion(version, true);
      }
      const { key, value } = modeRecord(subject, mode);
      await this.topic.append(key, value);
      return mode;
    });
  }

  /**
   * Removes the mode of `subject`, answering the one it had, as Confluent's registry does: 40401 when a subject has
   * none, unless `recursive` (then null). The global one (null) is always answered, READWRITE when none was set;
   * `recursive` removes every subject's own mode with it.
   */
  deleteMode(subject: string | null, recursive: boolean): Promise<Mode | null> {
    return this.serialized(async () => {
      const own = subject === null ? this.modeOf(null) : this.state.modes.own(subject);
      if (subject !== null && own === undefined && !recursive) throw subjectNotFound(subject);
      const removed = subject === null && recursive ? [null, ...this.state.modes.subjects()] : [subject];
      for (const each of removed) {
        const { key, value } = modeRecord(each, null);
        await this.topic.append(key, value);
      }
      return own ?? null;
    });
  }

  /** 42205 when `subject` (null: the registry) is in a read-only mode. */
  private refuseReadOnly(subject: string | null): void {
    if (isReadOnly(this.modeOf(subject))) throw operationNotPermitted(`${subject === null ? "The registry" : `Subject '${subject}'`} is in read-only mode`);
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
      this.refuseReadOnly(subject);
      const { key, value } = configRecord(subject, level);
      await this.topic.append(key, value);
      return level;
    });
  }

  /**
   * Removes the level of `subject`, answering the one that applied: 40401 for a subject with neither versions nor
   * level. The global one (null) goes back to BACKWARD, answering the level it was, as Confluent's `DELETE /config`.
   */
  deleteLevel(subject: string | null): Promise<CompatibilityLevel> {
    return this.serialized(async () => {
      this.refuseReadOnly(subject);
      const own = this.state.compatibility(subject);
      if (own === undefined && subject !== null) this.state.versions(subject, "live");
      const { key, value } = configRecord(subject, null);
      await this.topic.append(key, value);
      return own ?? this.levelOf(null);
    });
  }

  /**
   * Deletes every version of `subject`, answering their numbers: soft (each kept, marked deleted; 40404 when all
   * already are), or with `permanent` for good (40405 while one is live), when the subject's own compatibility level
   * and mode go too (a soft delete keeps them, as Confluent's registry does). 40401 for a subject with no version
   * left; 42205 in a read-only mode.
   */
  deleteSubject(subject: string, permanent: boolean): Promise<number[]> {
    return this.serialized(async () => {
      const all = this.state.allVersions(subject);
      if (all.length === 0) throw subjectNotFound(subject);
      this.refuseReadOnly(subject);
      const live = all.filter((v) => !v.deleted);
      if (!permanent && live.length === 0) throw subjectSoftDeleted(subject);
      if (permanent && live.length > 0) throw subjectNotSoftDeleted(subject);
      const doomed = permanent ? all : live;
      for (const version of doomed) assertNotReferenced(this.state, version);
      for (const version of doomed) await this.removeVersion(version, permanent);
      if (permanent) await this.forgetSubjectSettings(subject);
      return doomed.map((v) => v.version);
    });
  }

  /**
   * Deletes `version` of `subject` (`latest`: its newest live one, with `permanent` too, as Confluent's registry
   * reads it — so a permanent delete of `latest` is always 40407 or 40402), answering its number: soft (40406 when it
   * already is), or with `permanent` for good (40407 when it was not soft-deleted first); the last version gone for
   * good takes the subject's own level and mode with it. 42205 in a read-only mode.
   */
  deleteVersion(subject: string, version: number | "latest", permanent: boolean): Promise<number> {
    return this.serialized(async () => {
      const all = this.state.allVersions(subject);
      if (all.length === 0) throw subjectNotFound(subject);
      const live = all.filter((v) => !v.deleted);
      const found = version === "latest" ? live[live.length - 1] : all.find((v) => v.version === version);
      if (found === undefined) throw versionNotFound(subject, version as number);
      if (!permanent && found.deleted) throw versionSoftDeleted(subject, found.version);
      this.refuseReadOnly(subject);
      if (permanent && !found.deleted) throw versionNotSoftDeleted(subject, found.version);
      assertNotReferenced(this.state, found);
      await this.removeVersion(found, permanent);
      if (permanent && all.length === 1) await this.forgetSubjectSettings(subject);
      return found.version;
    });
  }

  /** Removes the subject's own compatibility level and mode, if it has them. */
  private async forgetSubjectSettings(subject: string): Promise<void> {
    if (this.state.compatibility(subject) !== undefined) {
      const { key, value } = configRecord(subject, null);
      await this.topic.append(key, value);
    }
    if (this.state.modes.own(subject) !== undefined) {
      const { key, value } = modeRecord(subject, null);
      await this.topic.append(key, value);
    }
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

  /**
   * The version of `subject` holding `request`'s schema (a soft-deleted one too with `withDeleted`): 40401 without
   * the subject, 40403 without the schema.
   */
  lookup(subject: string, request: SchemaRequest, withDeleted: boolean): SubjectVersion {
    const content = this.contentOf(request);
    this.state.versions(subject, withDeleted ? "withDeleted" : "live");
    const found = this.state.findInSubject(subject, content, withDeleted);
    if (found === undefined) throw schemaNotFound();
    return found;
  }

  /**
   * `content` with its schema in the answer format Confluent's `format` parameter names (a Protobuf schema's
   * `serialized` descriptor, say); as it is without one, or for a type or format that has none, as Confluent's
   * registry answers an unknown format.
   */
  formatted<T extends SchemaContent>(content: T, format: string | undefined): T {
    const type = schemaTypeOf(content.schemaType);
    if (format === undefined || format.trim() === "" || type.formatted === undefined) return content;
    return { ...content, schema: type.formatted(resolveSchema(this.state, content), format.trim().toLowerCase()) };
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

/** The id and version an IMPORT registration gives; a negative id or a version below 1 is none, as Confluent reads them. */
function importedIdentity(request: SchemaRequest): { id?: number; version?: number } {
  const given = (value: unknown, least: number, name: string) => {
    if (value === undefined || value === null) return undefined;
    if (!Number.isSafeInteger(value)) throw invalidSchema(`'${name}' must be an integer`);
    return (value as number) >= least ? (value as number) : undefined;
  };
  return { id: given(request.id, 0, "id"), version: given(request.version, 1, "version") };
}
