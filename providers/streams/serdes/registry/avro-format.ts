/**
 * The `avro` serde's bodies: avsc (which Confluent's package uses too) encodes and decodes them. Named types of
 * referenced schemas are learnt first, so the schema can use them by name.
 *
 * Reading gives avsc's plain values: records as objects of their fields, unions unwrapped where their branches do not
 * overlap, `long` as a number, `bytes` and `fixed` as Buffers — what Kafka's generic reading gives, in JavaScript form
 * (there are no generated classes for a `specific.avro.reader` to make). A serde given its schema reads records of
 * other schemas as that one (Avro's schema resolution: fields by name, defaults for the missing, promotions), as
 * SpecificAvroSerde reads them as its class.
 */
import { Type, type Resolver } from "avsc";
import { referencedSchemas } from "./referenced-schemas";
import type { SchemaFormat } from "./registry-serde";

type AvroSchema = Parameters<typeof Type.forSchema>[0];

/** A schema's type, and how to read bodies of another writer schema as it. */
interface AvroCodec {
  type: Type;
  resolver?: Resolver;
}

export const AVRO_FORMAT: SchemaFormat<AvroCodec> = {
  serdeName: "avro",
  schemaType: "AVRO",
  async compile(schema, client) {
    const registry: Record<string, Type> = {};
    for (const referenced of (await referencedSchemas(schema, client)).values()) Type.forSchema(JSON.parse(referenced.schema) as AvroSchema, { registry });
    return { type: Type.forSchema(JSON.parse(schema.schema) as AvroSchema, { registry }) };
  },
  encode: (codec, value) => codec.type.toBuffer(value),
  decode: (codec, body) => codec.type.fromBuffer(body, codec.resolver),
  // Confluent's Avro serdes name a record schema by its full name (namespace.name, as avsc names the type).
  async recordName(_schema, codec) {
    const { type } = await codec();
    return type.typeName === "record" ? type.name : undefined;
  },
  readAs: (reader, writer) => (reader.type.equals(writer.type) ? writer : { type: reader.type, resolver: reader.type.createResolver(writer.type) }),
};
