/**
 * The `avro` serde's bodies: avsc (which Confluent's package uses too) encodes and decodes them. Named types of
 * referenced schemas are learnt first, so the schema can use them by name.
 *
 * Reading gives avsc's plain values: records as objects of their fields, unions unwrapped where their branches do not
 * overlap, `long` as a number, `bytes` and `fixed` as Buffers — what Kafka's generic reading gives, in JavaScript form
 * (there are no generated classes for a `specific.avro.reader` to make).
 */
import { Type } from "avsc";
import { referencedSchemas } from "./referenced-schemas";
import type { SchemaFormat } from "./registry-serde";

type AvroSchema = Parameters<typeof Type.forSchema>[0];

export const AVRO_FORMAT: SchemaFormat<Type> = {
  serdeName: "avro",
  schemaType: "AVRO",
  async compile(schema, client) {
    const registry: Record<string, Type> = {};
    for (const referenced of (await referencedSchemas(schema, client)).values()) Type.forSchema(JSON.parse(referenced.schema) as AvroSchema, { registry });
    return Type.forSchema(JSON.parse(schema.schema) as AvroSchema, { registry });
  },
  encode: (type, value) => type.toBuffer(value),
  decode: (type, body) => type.fromBuffer(body),
};
