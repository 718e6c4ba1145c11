/**
 * The schema types the registry checks, and each one's canonical text: what two registrations must share to be
 * the same schema. AVRO only in this slice; PROTOBUF and JSON come with their serdes.
 */
import { Type } from "avsc";
import { invalidSchema } from "./registry-errors";

export const SCHEMA_TYPES = ["AVRO"] as const;

/** `schema` parsed as `schemaType` and written back compactly; 42201 when it does not parse. */
export function canonicalSchema(schemaType: string, schema: string): string {
  if (schemaType !== "AVRO") throw invalidSchema(`schema type '${schemaType}' is not supported; supported: ${SCHEMA_TYPES.join(", ")}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(schema);
  } catch (error) {
    throw invalidSchema(`not JSON: ${(error as Error).message}`);
  }
  try {
    Type.forSchema(parsed as Parameters<typeof Type.forSchema>[0]);
  } catch (error) {
    throw invalidSchema((error as Error).message);
  }
  return JSON.stringify(parsed);
}
