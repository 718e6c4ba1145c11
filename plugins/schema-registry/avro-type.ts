/**
 * The AVRO schema type. Whether data written with one schema can be read with another is avsc's schema resolution
 * (`createResolver` refuses what Avro's reader/writer rules refuse), so the rules are Avro's own and not restated
 * here. A referenced schema's named types are learnt before the schema that uses them by name.
 */
import { Type } from "avsc";
import type { ResolvedSchema, SchemaType } from "./schema-types";

type AvroSchema = Parameters<typeof Type.forSchema>[0];

function parse({ schema, dependencies }: ResolvedSchema): Type {
  const registry: Record<string, Type> = {};
  for (const dependency of dependencies) Type.forSchema(JSON.parse(dependency) as AvroSchema, { registry });
  return Type.forSchema(parseJson(schema) as AvroSchema, { registry });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON: ${(error as Error).message}`);
  }
}

export const AVRO_TYPE: SchemaType = {
  canonical(schema) {
    parse(schema);
    return JSON.stringify(JSON.parse(schema.schema));
  },
  unreadable(reader, writer) {
    try {
      parse(reader).createResolver(parse(writer));
      return [];
    } catch (error) {
      return [(error as Error).message];
    }
  },
};
