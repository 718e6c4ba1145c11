/**
 * What the serdes of a record's key and value need from outside the process before they read it (a schema registry's
 * schema, Serde.prepareDeserialize), as one promise, or none when neither needs anything, so that a record of cached
 * schemas, or of the builtin serdes, is read at once.
 */

/** The key's and the value's preparations, awaited together; none when neither has one. */
export function bothReady(key: Promise<void> | undefined, value: Promise<void> | undefined): Promise<void> | undefined {
  if (key === undefined) return value;
  return value === undefined ? key : Promise.all([key, value]).then(() => undefined);
}
