/** How the DSL names a serde: an object, a builtin by name, or a schema registry serde with the schema it writes. */
import type { Serde } from "../serde";

/**
 * A schema registry serde given the schema it writes (Kafka Streams' SpecificAvroSerde, or a serde configured with a
 * schema object): `schema` is the Avro schema or the JSON schema, as an object or its JSON text. With
 * `auto.register.schemas=true` it is registered under the topic's subject; with `use.latest.version=false` the
 * records name its id; with `use.latest.version=true` (and no auto-registration) they are written with the subject's
 * latest schema, as Kafka's serializers do.
 */
export interface RegistrySerdeRef {
  readonly serde: "avro" | "json_schema";
  readonly schema: object | string;
  /** The schemas it references by name, registered under their own subjects. */
  readonly references?: readonly { readonly name: string; readonly subject: string; readonly version: number }[];
}

/**
 * A serde object, the name of a builtin one: string, json, long, int, double, bytes, or `avro` / `json_schema` (records
 * framed by a schema registry, see `schema.registry.url`), or a registry serde with its schema.
 */
export type SerdeRef<T> = Serde<T> | "string" | "json" | "long" | "int" | "double" | "bytes" | "avro" | "json_schema" | RegistrySerdeRef;
