/**
 * The errors of the Confluent Schema Registry API: a body `{"error_code": 40401, "message": ...}` whose code's first
 * three digits are the HTTP status, as Confluent's clients expect them.
 */
export class RegistryError extends Error {
  constructor(readonly errorCode: number, message: string) {
    super(message);
  }

  /** 40401 → 404, 42201 → 422; a three-digit code is its own status. */
  get status(): number {
    return this.errorCode >= 1000 ? Math.floor(this.errorCode / 100) : this.errorCode;
  }
}

export const subjectNotFound = (subject: string) => new RegistryError(40401, `Subject '${subject}' not found.`);
export const versionNotFound = (subject: string, version: number) => new RegistryError(40402, `Version ${version} not found for subject '${subject}'.`);
export const schemaNotFound = (what = "Schema not found") => new RegistryError(40403, what);
export const invalidSchema = (reason: string) => new RegistryError(42201, `Invalid schema: ${reason}`);
export const invalidVersion = (version: string) =>
  new RegistryError(42202, `The specified version '${version}' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest"`);
export const subjectCompatibilityNotConfigured = (subject: string) =>
  new RegistryError(40408, `Subject '${subject}' does not have subject-level compatibility configured`);
export const invalidCompatibilityLevel = (level: string) => new RegistryError(42203, `Invalid compatibility level: '${level}'`);
/** Confluent's 409: a three-digit code, its own status. */
export const incompatibleSchema = (subject: string, details: string[]) =>
  new RegistryError(409, `Schema being registered is incompatible with an earlier schema for subject "${subject}", details: ${details.join("; ")}`);
export const subjectSoftDeleted = (subject: string) =>
  new RegistryError(40404, `Subject '${subject}' was soft deleted. Set permanent=true to delete permanently`);
export const subjectNotSoftDeleted = (subject: string) =>
  new RegistryError(40405, `Subject '${subject}' was not deleted first before being permanently deleted`);
export const versionSoftDeleted = (subject: string, version: number) =>
  new RegistryError(40406, `Subject '${subject}' Version ${version} was soft deleted. Set permanent=true to delete permanently`);
export const versionNotSoftDeleted = (subject: string, version: number) =>
  new RegistryError(40407, `Subject '${subject}' Version ${version} was not deleted first before being permanently deleted`);
export const referenceExists = (subject: string, version: number) =>
  new RegistryError(42206, `One or more references exist to the schema {subject=${subject}, version=${version}}`);
