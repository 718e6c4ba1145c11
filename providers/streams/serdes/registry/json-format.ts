/**
 * The `json_schema` serde's bodies: the value's JSON text, as Confluent's JsonSerializer writes it. Like Confluent's
 * serdes, it checks values against their schema only when asked (`json.fail.invalid.schema=true`): on write, a value
 * that does not fit stops the record with the reason; on read, the record follows the deserialization error policy.
 */
import type { JsonValidator, RegisteredSchema, RegistryClient } from "./confluent-package";
import type { SchemaFormat } from "./registry-serde";

/** The format; `validator`, when given, makes the check of each value against its schema. */
export function jsonFormat(validator?: (schema: RegisteredSchema, client: RegistryClient) => Promise<JsonValidator>): SchemaFormat<JsonValidator | undefined> {
  return {
    serdeName: "json_schema",
    schemaType: "JSON",
    compile: async (schema, client) => validator?.(schema, client),
    encode(validate, value) {
      const invalid = validate?.(value);
      if (invalid !== undefined) throw new Error(`the value ${invalid}`);
      return Buffer.from(JSON.stringify(value));
    },
    // Confluent's JSON Schema serdes name a schema by its `title`.
    async recordName(schema) {
      const title: unknown = (JSON.parse(schema.schema) as { title?: unknown } | null)?.title;
      return typeof title === "string" ? title : undefined;
    },
    decode(validate, body) {
      const value: unknown = JSON.parse(body.toString("utf8"));
      const invalid = validate?.(value);
      if (invalid !== undefined) throw new Error(`the record ${invalid}`);
      return value;
    },
  };
}
