/**
 * The JSON schema type (JSON Schema, drafts 4 to 2020-12 as Confluent's registry takes them). A schema is checked for
 * the shape of the keywords it uses — a schema is an object or a boolean, `type` names JSON types, `properties` maps
 * names to schemas, `required` lists names, and so on — not against the whole meta-schema; unknown keywords are kept,
 * as JSON Schema allows. Its canonical text is its JSON written compactly. References (`$ref` to a reference's name)
 * are not followed: a referenced schema is checked when it is registered under its own subject.
 */
import { jsonSchemaUnreadable } from "./json-schema-compatibility";
import type { SchemaType } from "./schema-types";

export const JSON_TYPES = ["null", "boolean", "object", "array", "number", "integer", "string"];

/** Keywords whose value is a schema, an object of schemas, or a list of schemas. */
const SCHEMA_KEYWORDS = ["additionalProperties", "additionalItems", "items", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties"];
const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"];
const SCHEMA_LIST_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"];

export type JsonSchema = boolean | { [keyword: string]: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Throws naming the first keyword (by JSON pointer) whose value has the wrong shape. */
function check(schema: unknown, path: string): void {
  if (typeof schema === "boolean") return;
  if (!isObject(schema)) throw new Error(`${path || "the schema"} must be an object or a boolean`);
  const at = (keyword: string) => `${path}/${keyword}`;
  const type = schema.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (types.length === 0 || !types.every((t) => typeof t === "string" && JSON_TYPES.includes(t))) throw new Error(`${at("type")} must name JSON types (${JSON_TYPES.join(", ")})`);
  }
  for (const keyword of SCHEMA_KEYWORDS) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (keyword === "items" && Array.isArray(value)) value.forEach((item, i) => check(item, `${at(keyword)}/${i}`));
    else check(value, at(keyword));
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (!isObject(value)) throw new Error(`${at(keyword)} must be an object of schemas`);
    for (const [name, sub] of Object.entries(value)) check(sub, `${at(keyword)}/${name}`);
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.length === 0) throw new Error(`${at(keyword)} must be a non-empty list of schemas`);
    value.forEach((sub, i) => check(sub, `${at(keyword)}/${i}`));
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((name) => typeof name === "string"))) throw new Error(`${at("required")} must be a list of property names`);
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) throw new Error(`${at("enum")} must be a list`);
  if (schema.$ref !== undefined && typeof schema.$ref !== "string") throw new Error(`${at("$ref")} must be a string`);
}

export const JSON_TYPE: SchemaType = {
  canonical({ schema }) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(schema);
    } catch (error) {
      throw new Error(`not JSON: ${(error as Error).message}`);
    }
    check(parsed, "");
    return JSON.stringify(parsed);
  },
  unreadable: (reader, writer) => jsonSchemaUnreadable(JSON.parse(reader.schema) as JsonSchema, JSON.parse(writer.schema) as JsonSchema),
};
