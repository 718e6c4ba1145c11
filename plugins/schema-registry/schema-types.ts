/**
 * The schema types the registry takes, each in its own module: how a schema of the type is checked and written in
 * canonical text (what two registrations must share to be the same schema), and whether data written with one schema
 * of the type can be read with another (what compatibility levels check).
 */
import { AVRO_TYPE } from "./avro-type";
import { JSON_TYPE } from "./json-schema-type";
import { PROTOBUF_TYPE } from "./protobuf-type";
import { invalidSchema } from "./registry-errors";

/**
 * A schema's text with the texts of the schemas it references, transitively, dependencies first, and the names its
 * own references give them (a Protobuf import's path).
 */
export interface ResolvedSchema {
  schema: string;
  dependencies: string[];
  referenceNames: string[];
}

export interface SchemaType {
  /** `schema` checked and written back canonically; throws with the reason when it is not a schema of the type. */
  canonical(schema: ResolvedSchema): string;
  /** Why data written with `writer` cannot be read with `reader` (both canonical); empty when it can. */
  unreadable(reader: ResolvedSchema, writer: ResolvedSchema): string[];
  /** The canonical `schema` in the answer format `format` asks for, where the type has such formats. */
  formatted?(schema: ResolvedSchema, format: string): string;
}

const TYPES: Readonly<Record<string, SchemaType>> = { AVRO: AVRO_TYPE, JSON: JSON_TYPE, PROTOBUF: PROTOBUF_TYPE };

export const SCHEMA_TYPES = Object.keys(TYPES);

/** The type named `schemaType`; 42201 for one the registry does not take. */
export function schemaTypeOf(schemaType: string): SchemaType {
  const type = Object.hasOwn(TYPES, schemaType) ? TYPES[schemaType] : undefined;
  if (type === undefined) throw invalidSchema(`schema type '${schemaType}' is not supported; supported: ${SCHEMA_TYPES.join(", ")}`);
  return type;
}

/** `schema` parsed as `schemaType` and written back canonically; 42201 when it does not parse. */
export function canonicalSchema(schemaType: string, schema: ResolvedSchema): string {
  const type = schemaTypeOf(schemaType);
  try {
    return type.canonical(schema);
  } catch (error) {
    throw invalidSchema((error as Error).message);
  }
}
