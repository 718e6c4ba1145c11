/**
 * Schema references (`references: [{name, subject, version}]` on a registration): a schema may use what another
 * subject's version defines (Avro named types, a JSON schema's `$ref`, a Protobuf import), by the reference's name.
 * A reference must name a live version; a version that others reference cannot be deleted (42206).
 */
import { invalidSchema, referenceExists } from "./registry-errors";
import type { RegistryState, SchemaContent, SchemaReference, SubjectVersion } from "./registry-state";
import type { ResolvedSchema } from "./schema-types";

/** The references of a request; 42201 when they are not a list of {name, subject, version}. */
export function referencesOf(references: unknown): SchemaReference[] {
  if (references === undefined || references === null) return [];
  if (!Array.isArray(references) || !references.every(isReference)) throw invalidSchema("'references' must be a list of {name, subject, version}");
  return references.map(({ name, subject, version }) => ({ name, subject, version }));
}

function isReference(value: unknown): value is SchemaReference {
  const reference = value as Partial<SchemaReference> | null;
  return reference !== null && typeof reference === "object" && typeof reference.name === "string" && typeof reference.subject === "string" && Number.isInteger(reference.version);
}

/** `content` with the texts of the schemas it references, transitively, dependencies first; 42201 for a missing one. */
export function resolveSchema(state: RegistryState, content: SchemaContent): ResolvedSchema {
  const dependencies: string[] = [];
  const seen = new Set<string>();
  const visit = (references: SchemaReference[]) => {
    for (const reference of references) {
      const key = `${reference.subject}\u0000${reference.version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const referenced = state.liveVersionsIfAny(reference.subject).find((v) => v.version === reference.version);
      if (referenced === undefined) throw invalidSchema(`reference '${reference.name}' names version ${reference.version} of subject '${reference.subject}', which does not exist`);
      visit(referenced.references);
      dependencies.push(referenced.schema);
    }
  };
  visit(content.references);
  return { schema: content.schema, dependencies, referenceNames: content.references.map((reference) => reference.name) };
}

/** The ids of the schemas that reference `version`, ascending: the live ones, or with `deleted` the soft-deleted too. */
export function referencedBy(state: RegistryState, version: SubjectVersion, deleted = false): number[] {
  const ids = state
    .allSubjectVersions()
    .filter((v) => deleted || !v.deleted)
    .filter((v) => v.references.some((r) => r.subject === version.subject && r.version === version.version))
    .map((v) => v.id);
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** 42206 when a schema still on the topic (soft-deleted too) references `version`: reading it needs `version`. */
export function assertNotReferenced(state: RegistryState, version: SubjectVersion): void {
  if (referencedBy(state, version, true).length > 0) throw referenceExists(version.subject, version.version);
}
