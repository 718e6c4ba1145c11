/**
 * Whether every value valid under one JSON schema (the writer's) is valid under another (the reader's): the check
 * behind the compatibility levels for the JSON type. It follows the rules of Confluent's JSON Schema compatibility
 * for what it compares, and is sound where it stops: a keyword it does not compare must be the same in both schemas,
 * or the change is reported as incompatible.
 *
 * Compared: `type` (a reader may widen, `integer` to `number` included, never narrow), `enum` and `const`, the
 * numeric, length and size bounds, `pattern`, `format` and `multipleOf` (unchanged or dropped by the reader),
 * `required` (a reader may not require more), `properties` with the content model (`additionalProperties`: a
 * property the writer's closed model forbids may be added; one its open model allows may not, since old data may
 * hold anything under that name; a property may be removed only where the reader's model still admits it), and
 * `items` as one schema. Every other constraining keyword (`allOf`, `anyOf`, `oneOf`, `not`, `$ref`, tuple `items`,
 * `patternProperties`, `definitions`, …) must be unchanged.
 */
import type { JsonSchema } from "./json-schema-type";

type SchemaObject = Record<string, unknown>;

/** Keywords that say something about a schema without constraining its values. */
const ANNOTATIONS = new Set(["$schema", "$id", "id", "$comment", "title", "description", "default", "examples", "readOnly", "writeOnly", "deprecated", "$anchor", "confluent:tags"]);
/** Bounds a reader may lower (or drop), never raise. */
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
/** Bounds a reader may raise (or drop), never lower. */
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
/** Keywords a reader may keep unchanged or drop. */
const KEPT_OR_DROPPED = ["pattern", "format", "multipleOf", "uniqueItems"];
const COMPARED = new Set([...LOWER_BOUNDS, ...UPPER_BOUNDS, ...KEPT_OR_DROPPED, "type", "enum", "const", "required", "properties", "additionalProperties", "items"]);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const asObject = (schema: JsonSchema | undefined): SchemaObject | false => (schema === undefined || schema === true ? {} : schema === false ? false : schema);
const pointer = (path: string) => path || "/";

/** Why values valid under `writer` may not be valid under `reader`; empty when every one is. */
export function jsonSchemaUnreadable(reader: JsonSchema, writer: JsonSchema): string[] {
  return compare(reader, writer, "");
}

function compare(readerSchema: JsonSchema | undefined, writerSchema: JsonSchema | undefined, path: string): string[] {
  const writer = asObject(writerSchema);
  if (writer === false) return []; // the writer wrote nothing here
  const reader = asObject(readerSchema);
  if (reader === false) return [`${pointer(path)}: the reader's schema refuses every value`];
  if (same(reader, writer) || Object.keys(reader).every((keyword) => ANNOTATIONS.has(keyword))) return [];
  const messages = [...compareTypes(reader, writer, path), ...compareValues(reader, writer, path), ...compareObjects(reader, writer, path)];
  if (!Array.isArray(reader.items) && !Array.isArray(writer.items)) messages.push(...compare(reader.items as JsonSchema | undefined, writer.items as JsonSchema | undefined, `${path}/items`));
  else if (!same(reader.items, writer.items)) messages.push(`${path}/items: tuple items changed (not compared, so refused)`);
  for (const keyword of new Set([...Object.keys(reader), ...Object.keys(writer)])) {
    if (ANNOTATIONS.has(keyword) || COMPARED.has(keyword) || same(reader[keyword], writer[keyword])) continue;
    messages.push(`${path}/${keyword}: '${keyword}' changed (not compared, so refused)`);
  }
  return messages;
}

const typesOf = (schema: SchemaObject): string[] | undefined => (schema.type === undefined ? undefined : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]);

function compareTypes(reader: SchemaObject, writer: SchemaObject, path: string): string[] {
  const readerTypes = typesOf(reader);
  if (readerTypes === undefined) return [];
  const writerTypes = typesOf(writer);
  if (writerTypes === undefined) return [`${pointer(path)}: type ${readerTypes.join("|")} added`];
  const unread = writerTypes.filter((type) => !readerTypes.includes(type) && !(type === "integer" && readerTypes.includes("number")));
  return unread.length === 0 ? [] : [`${pointer(path)}: type ${writerTypes.join("|")} narrowed to ${readerTypes.join("|")}`];
}

function compareValues(reader: SchemaObject, writer: SchemaObject, path: string): string[] {
  const messages: string[] = [];
  if (reader.enum !== undefined && !(Array.isArray(writer.enum) && writer.enum.every((value) => (reader.enum as unknown[]).some((allowed) => same(allowed, value))))) {
    messages.push(`${path}/enum: the reader's enum does not hold every value the writer's allows`);
  }
  if (reader.const !== undefined && !same(reader.const, writer.const)) messages.push(`${path}/const: changed or added`);
  for (const keyword of LOWER_BOUNDS) if (reader[keyword] !== undefined && !(typeof writer[keyword] === "number" && writer[keyword] >= (reader[keyword] as number))) messages.push(`${path}/${keyword}: raised or added`);
  for (const keyword of UPPER_BOUNDS) if (reader[keyword] !== undefined && !(typeof writer[keyword] === "number" && writer[keyword] <= (reader[keyword] as number))) messages.push(`${path}/${keyword}: lowered or added`);
  for (const keyword of KEPT_OR_DROPPED) if (reader[keyword] !== undefined && !same(reader[keyword], writer[keyword])) messages.push(`${path}/${keyword}: changed or added`);
  return messages;
}

function compareObjects(reader: SchemaObject, writer: SchemaObject, path: string): string[] {
  const messages: string[] = [];
  const readerProperties = (reader.properties ?? {}) as Record<string, JsonSchema>;
  const writerProperties = (writer.properties ?? {}) as Record<string, JsonSchema>;
  const readerAdditional = reader.additionalProperties as JsonSchema | undefined;
  const writerAdditional = writer.additionalProperties as JsonSchema | undefined;
  for (const [name, written] of Object.entries(writerProperties)) {
    const at = `${path}/properties/${name}`;
    if (Object.hasOwn(readerProperties, name)) messages.push(...compare(readerProperties[name], written, at));
    else if (readerAdditional === false) messages.push(`${at}: property removed from a closed content model`);
    else messages.push(...compare(readerAdditional, written, at));
  }
  for (const [name, read] of Object.entries(readerProperties)) {
    if (Object.hasOwn(writerProperties, name)) continue;
    // Values the writer wrote under this name were those its additionalProperties allowed.
    if (compare(read, writerAdditional, "").length > 0) messages.push(`${path}/properties/${name}: property added to an open content model`);
  }
  if (readerAdditional !== undefined || writerAdditional !== undefined) messages.push(...compare(readerAdditional, writerAdditional, `${path}/additionalProperties`));
  const writerRequired = new Set((writer.required ?? []) as string[]);
  for (const name of (reader.required ?? []) as string[]) if (!writerRequired.has(name)) messages.push(`${path}/required: required property '${name}' added`);
  return messages;
}
