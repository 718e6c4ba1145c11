/** How the DSL names a serde: an object, a builtin by name, or a schema registry serde with the schema it writes. */
import type { Serde } from "../serde";

/**
 * A schema registry serde given the schema it writes (Kafka Streams' SpecificAvroSerde, or a serde configured with a
 * schema object): `schema` is the Avro schema or the JSON schema, as an object or its JSON text, or the Protobuf
 * schema's .proto text (which the registry parses: the serde reads it back with `format=serialized`). With
 * `auto.register.schemas=true` it is registered under the topic's subject; with `use.latest.version=false` the
 * records name its id; with `use.latest.version=true` (and no auto-registration) they are written with the subject's
 * latest schema, as Kafka's serializers do.
 */
export type RegistrySerdeRef = SchemaRegistrySerdeRef | ProtobufSerdeRef;

interface GivenSchemaRef {
  /** The schemas it references by name (Protobuf: the imported file's name), registered under their own subjects. */
  readonly references?: readonly { readonly name: string; readonly subject: string; readonly version: number }[];
}

export interface SchemaRegistrySerdeRef extends GivenSchemaRef {
  readonly serde: "avro" | "json_schema";
  readonly schema: object | string;
}

export interface ProtobufSerdeRef extends GivenSchemaRef {
  readonly serde: "protobuf";
  /** The .proto text. */
  readonly schema: string;
  /** The full name of the message values are written as (`package.Outer.Inner`); default: the file's first message. */
  readonly message?: string;
}

/**
 * A serde object, the name of a builtin one: string, json, long, int, double, bytes, or `avro` / `json_schema` /
 * `protobuf` (records framed by a schema registry, see `schema.registry.url`), or a registry serde with its schema.
 */
export type SerdeRef<T> = Serde<T> | "string" | "json" | "long" | "int" | "double" | "bytes" | "avro" | "json_schema" | "protobuf" | RegistrySerdeRef;
