/**
 * What the registry knows, rebuilt from the records of the `_schemas` topic in their order. The records keep the
 * layout of Confluent's registry: a JSON key `{"keytype":"SCHEMA","subject":s,"version":v,"magic":1}` and a JSON value
 * `{"subject","version","id","schemaType"?,"schema","references"?,"deleted"}` (schemaType left out for AVRO); a null
 * value removes the version. A compatibility level is a `{"keytype":"CONFIG","subject":s|null,"magic":0}` key (null: the
 * global level) with a `{"compatibilityLevel"}` value; a null value removes it. MODE keys hold the modes (modes.ts).
 * Other key types are skipped.
 */
import { COMPATIBILITY_LEVELS, type CompatibilityLevel } from "./compatibility";
import { isModeKey, RegistryModes } from "./modes";
import { schemaNotFound, subjectNotFound, versionNotFound } from "./registry-errors";

export const DEFAULT_SCHEMA_TYPE = "AVRO";

export interface SchemaReference {
  name: string;
  subject: string;
  version: number;
}

/** A schema as registered: its text (canonical for its type), type and references. */
export interface SchemaContent {
  schemaType: string;
  schema: string;
  references: SchemaReference[];
}

export interface SubjectVersion extends SchemaContent {
  subject: string;
  version: number;
  id: number;
  deleted: boolean;
}

/** Which versions a listing or lookup takes, as Confluent's `deleted` and `deletedOnly` parameters choose them. */
export type DeletedFilter = "live" | "withDeleted" | "deletedOnly";

const passes = (filter: DeletedFilter, version: SubjectVersion) => (filter === "live" ? !version.deleted : filter === "deletedOnly" ? version.deleted : true);

export interface ConfigKey {
  keytype: "CONFIG";
  subject: string | null;
  magic: 0;
}

export interface SchemaKey {
  keytype: "SCHEMA";
  subject: string;
  version: number;
  magic: 1;
}

/** Two contents are the same schema when type, text and references all agree. */
const identity = (content: SchemaContent) => JSON.stringify([content.schemaType, content.schema, content.references.map((r) => [r.name, r.subject, r.version])]);

export class RegistryState {
  private readonly subjectVersions = new Map<string, Map<number, SubjectVersion>>();
  private readonly contents = new Map<number, SchemaContent>();
  private readonly idsByIdentity = new Map<string, number>();
  /** Compatibility levels by subject; the global one under null. */
  private readonly levels = new Map<string | null, CompatibilityLevel>();
  readonly modes = new RegistryModes();
  private maxId = 0;

  /** One record of the topic; keys this slice does not know are skipped. */
  apply(key: unknown, value: unknown): void {
    if (isConfigKey(key)) return this.applyConfig(key, value);
    if (isModeKey(key)) return this.modes.apply(key, value);
    if (!isSchemaKey(key)) return;
    const versions = this.subjectVersions.get(key.subject) ?? new Map<number, SubjectVersion>();
    this.subjectVersions.set(key.subject, versions);
    if (value === null) {
      versions.delete(key.version);
      return;
    }
    if (typeof value !== "object" || value === undefined) return;
    const stored = toSubjectVersion(value as Record<string, unknown>);
    versions.set(stored.version, stored);
    this.contents.set(stored.id, { schemaType: stored.schemaType, schema: stored.schema, references: stored.references });
    this.idsByIdentity.set(identity(stored), stored.id);
    this.maxId = Math.max(this.maxId, stored.id);
  }

  /** The level set for `subject` (null: the global one), if any. */
  compatibility(subject: string | null): CompatibilityLevel | undefined {
    return this.levels.get(subject);
  }

  private applyConfig(key: ConfigKey, value: unknown): void {
    const level = (value as { compatibilityLevel?: unknown } | null)?.compatibilityLevel;
    if (COMPATIBILITY_LEVELS.includes(level as CompatibilityLevel)) this.levels.set(key.subject, level as CompatibilityLevel);
    else if (value === null) this.levels.delete(key.subject);
  }

  /** Subjects, sorted: with a live version, or with any (`withDeleted`), or with soft-deleted ones only (`deletedOnly`). */
  subjects(filter: DeletedFilter = "live"): string[] {
    const deleted = (versions: Map<number, SubjectVersion>) => [...versions.values()].every((v) => v.deleted);
    return [...this.subjectVersions]
      .filter(([, versions]) => versions.size > 0 && (filter === "withDeleted" || deleted(versions) === (filter === "deletedOnly")))
      .map(([subject]) => subject)
      .sort();
  }

  /** The versions of `subject` that `filter` takes, ascending; 40401 when it has none. */
  versions(subject: string, filter: DeletedFilter): SubjectVersion[] {
    const found = this.allVersions(subject).filter((v) => passes(filter, v));
    if (found.length === 0) throw subjectNotFound(subject);
    return found;
  }

  /** The live versions of `subject`, ascending; none for a subject never registered. */
  liveVersionsIfAny(subject: string): SubjectVersion[] {
    return this.allVersions(subject).filter((v) => !v.deleted);
  }

  /** Every version of `subject` still on the topic, soft-deleted ones too, ascending. */
  allVersions(subject: string): SubjectVersion[] {
    return [...(this.subjectVersions.get(subject)?.values() ?? [])].sort((a, b) => a.version - b.version);
  }

  /** Every version of every subject still on the topic, soft-deleted ones too. */
  allSubjectVersions(): SubjectVersion[] {
    return [...this.subjectVersions.values()].flatMap((versions) => [...versions.values()]);
  }

  /**
   * `version` of `subject`, a soft-deleted one too with `withDeleted`; for `"latest"` its newest live version (also
   * with `withDeleted`, as Confluent's registry answers). 40401 when the subject has no version that could answer,
   * 40402 when it has but not this one.
   */
  version(subject: string, version: number | "latest", withDeleted = false): SubjectVersion {
    const live = this.liveVersionsIfAny(subject);
    const found = version === "latest" ? live[live.length - 1] : this.allVersions(subject).find((v) => v.version === version && (withDeleted || !v.deleted));
    if (found !== undefined) return found;
    this.versions(subject, withDeleted ? "withDeleted" : "live");
    throw versionNotFound(subject, version as number);
  }

  schemaById(id: number): SchemaContent {
    const content = this.contents.get(id);
    if (content === undefined) throw schemaNotFound(`Schema ${id} not found`);
    return content;
  }

  /** The live subject versions that hold schema `id`, by subject then version; 40403 for an unknown id. */
  usesOf(id: number): { subject: string; version: number }[] {
    this.schemaById(id);
    return [...this.subjectVersions.values()]
      .flatMap((versions) => [...versions.values()])
      .filter((v) => v.id === id && !v.deleted)
      .map(({ subject, version }) => ({ subject, version }))
      .sort((a, b) => a.subject.localeCompare(b.subject) || a.version - b.version);
  }

  /** The live version of `subject` holding this content (the oldest, soft-deleted ones too with `withDeleted`), if any. */
  findInSubject(subject: string, content: SchemaContent, withDeleted = false): SubjectVersion | undefined {
    const wanted = identity(content);
    return this.allVersions(subject).find((v) => (withDeleted || !v.deleted) && identity(v) === wanted);
  }

  /** Whether schema `id` is held by something other than `content`. */
  idHeldByOther(id: number, content: SchemaContent): boolean {
    const held = this.contents.get(id);
    return held !== undefined && identity(held) !== identity(content);
  }

  /** The id this content has anywhere in the registry, or the next free one: one schema, one id, across subjects. */
  idFor(content: SchemaContent): number {
    return this.idsByIdentity.get(identity(content)) ?? this.maxId + 1;
  }

  /** The version number the next registration under `subject` takes (deleted versions keep their numbers). */
  nextVersion(subject: string): number {
    return Math.max(0, ...(this.subjectVersions.get(subject)?.keys() ?? [])) + 1;
  }
}

function isConfigKey(key: unknown): key is ConfigKey {
  const candidate = key as Partial<ConfigKey> | null;
  return candidate !== null && typeof candidate === "object" && candidate.keytype === "CONFIG" && (candidate.subject === null || typeof candidate.subject === "string");
}

/** The topic record that sets (or, with null, removes) the compatibility level of `subject` (null: the global one). */
export function configRecord(subject: string | null, level: CompatibilityLevel | null): { key: ConfigKey; value: Record<string, unknown> | null } {
  return { key: { keytype: "CONFIG", subject, magic: 0 }, value: level === null ? null : { compatibilityLevel: level } };
}

function isSchemaKey(key: unknown): key is SchemaKey {
  const candidate = key as Partial<SchemaKey> | null;
  return candidate !== null && typeof candidate === "object" && candidate.keytype === "SCHEMA" && typeof candidate.subject === "string" && typeof candidate.version === "number";
}

function toSubjectVersion(value: Record<string, unknown>): SubjectVersion {
  return {
    subject: String(value.subject),
    version: Number(value.version),
    id: Number(value.id),
    schemaType: typeof value.schemaType === "string" ? value.schemaType : DEFAULT_SCHEMA_TYPE,
    schema: String(value.schema),
    references: Array.isArray(value.references) ? (value.references as SchemaReference[]) : [],
    deleted: value.deleted === true,
  };
}

/** The topic record that removes `stored` for good: its key with a null value. */
export const tombstoneRecord = (stored: SubjectVersion): { key: SchemaKey; value: null } => ({ key: schemaRecord(stored).key, value: null });

/** The topic record that registers `stored` (or, with `deleted`, soft-deletes it), in Confluent's layout. */
export function schemaRecord(stored: SubjectVersion): { key: SchemaKey; value: Record<string, unknown> } {
  return {
    key: { keytype: "SCHEMA", subject: stored.subject, version: stored.version, magic: 1 },
    value: {
      subject: stored.subject,
      version: stored.version,
      id: stored.id,
      ...(stored.schemaType === DEFAULT_SCHEMA_TYPE ? {} : { schemaType: stored.schemaType }),
      schema: stored.schema,
      ...(stored.references.length > 0 ? { references: stored.references } : {}),
      deleted: stored.deleted,
    },
  };
}
