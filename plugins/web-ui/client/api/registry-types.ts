/**
 * The answers of the schema registry routes (/schema-registry, Confluent's Schema Registry API) that the console
 * reads. They are Confluent's shapes, not Sluice's /api/v1 ones, so they are written here rather than generated.
 */
export interface RegistryVersion {
  subject: string;
  version: number;
  id: number;
  /** Left out for AVRO. */
  schemaType?: string;
  schema: string;
}

export const COMPATIBILITY_LEVELS = ["BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE", "NONE"] as const;

export const REGISTRY = "/schema-registry";

/** `/schema-registry/subjects/{subject}` and the paths under it, the subject encoded. */
export const subjectPath = (subject: string, rest = "") => `${REGISTRY}/subjects/${encodeURIComponent(subject)}${rest}`;
export const subjectConfigPath = (subject: string) => `${REGISTRY}/config/${encodeURIComponent(subject)}`;
