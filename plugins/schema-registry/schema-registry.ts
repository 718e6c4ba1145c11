/**
 * The registry's operations over its state and its topic: registering (the same schema under a subject answers its
 * existing id and version), looking up, and reading subjects, versions and ids. Writes from this instance go one
 * at a time, so two registrations never take the same id or version.
 */
import { invalidSchema, schemaNotFound } from "./registry-errors";
import { DEFAULT_SCHEMA_TYPE, RegistryState, schemaRecord, type SchemaContent, type SchemaReference, type SubjectVersion } from "./registry-state";
import { canonicalSchema } from "./schema-types";
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
    const content = contentOf(request);
    const write = this.writes.then(async () => {
      await this.caughtUp();
      const existing = this.state.findInSubject(subject, content);
      if (existing !== undefined) return { id: existing.id };
      const stored: SubjectVersion = { subject, version: this.state.nextVersion(subject), id: this.state.idFor(content), ...content, deleted: false };
      const { key, value } = schemaRecord(stored);
      await this.topic.append(key, value);
      return { id: stored.id };
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** The version of `subject` holding `request`'s schema: 40401 without the subject, 40403 without the schema. */
  lookup(subject: string, request: SchemaRequest): SubjectVersion {
    const content = contentOf(request);
    this.state.liveVersions(subject);
    const found = this.state.findInSubject(subject, content);
    if (found === undefined) throw schemaNotFound();
    return found;
  }
}

/** The request's schema, checked and in its canonical text: 42201 when it is missing or does not parse. */
function contentOf(request: SchemaRequest): SchemaContent {
  if (typeof request !== "object" || request === null) throw invalidSchema("the request body must be a JSON object");
  if (typeof request.schema !== "string") throw invalidSchema("'schema' must be a string");
  const schemaType = request.schemaType === undefined || request.schemaType === null ? DEFAULT_SCHEMA_TYPE : request.schemaType;
  if (typeof schemaType !== "string") throw invalidSchema("'schemaType' must be a string");
  const references = referencesOf(request.references);
  return { schemaType, schema: canonicalSchema(schemaType, request.schema), references };
}

function referencesOf(references: unknown): SchemaReference[] {
  if (references === undefined || references === null) return [];
  if (!Array.isArray(references) || !references.every(isReference)) throw invalidSchema("'references' must be a list of {name, subject, version}");
  if (references.length > 0) throw invalidSchema("schema references are not supported yet");
  return [];
}

function isReference(value: unknown): value is SchemaReference {
  const reference = value as Partial<SchemaReference> | null;
  return reference !== null && typeof reference === "object" && typeof reference.name === "string" && typeof reference.subject === "string" && Number.isInteger(reference.version);
}
