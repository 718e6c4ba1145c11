/** How the DSL names a serde: an object, or a builtin by name. */
import type { Serde } from "../serde";

/**
 * A serde object, or the name of a builtin one: string, json, long, int, double, bytes, or `avro` / `json_schema` (records
 * framed by a schema registry, see `schema.registry.url`).
 */
export type SerdeRef<T> = Serde<T> | "string" | "json" | "long" | "int" | "double" | "bytes" | "avro" | "json_schema";
