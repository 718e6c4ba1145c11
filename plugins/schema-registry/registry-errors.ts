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
