/**
 * The subset of JSON Schema (2020-12, as OpenAPI 3.1 uses it) that route declarations are written in, and its
 * validator: one declaration is both the request body's check and its schema in /api/v1/openapi.json. Only the
 * keywords below are honoured; a schema holding any other is refused when its route is registered, so the
 * document never promises a check that no code makes.
 */

export type JsonType = "object" | "array" | "string" | "integer" | "number" | "boolean" | "null";
export type JsonScalar = string | number | boolean | null;

export interface JsonSchema {
  type?: JsonType | readonly JsonType[];
  description?: string;
  enum?: readonly JsonScalar[];
  /** Objects. */
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  /** `false`: no other property; a schema: what every other property must be. Default: anything. */
  additionalProperties?: boolean | JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  /** Strings: the fewest characters. */
  minLength?: number;
  /** Arrays. */
  items?: JsonSchema;
  /** Numbers (a string or boolean passes them, as JSON Schema has it). */
  minimum?: number;
  exclusiveMinimum?: number;
  /** Documentation only. */
  examples?: readonly unknown[];
  default?: unknown;
}

const KEYWORDS: ReadonlySet<string> = new Set([
  "type", "description", "enum", "properties", "required", "additionalProperties", "minProperties", "maxProperties",
  "minLength", "items", "minimum", "exclusiveMinimum", "examples", "default",
]);

/** Throws naming the first keyword, at its place in the schema, that the validator does not honour. */
export function assertSupportedSchema(schema: JsonSchema, at = "#"): void {
  for (const keyword of Object.keys(schema)) {
    if (!KEYWORDS.has(keyword)) throw new Error(`JSON Schema keyword '${keyword}' at ${at} is not supported; supported: ${[...KEYWORDS].join(", ")}`);
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) assertSupportedSchema(property, `${at}/properties/${name}`);
  if (typeof schema.additionalProperties === "object") assertSupportedSchema(schema.additionalProperties, `${at}/additionalProperties`);
  if (schema.items) assertSupportedSchema(schema.items, `${at}/items`);
}

const inWords = (count: number) => (count === 1 ? "one" : String(count));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function typeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

const TYPE_NAMES: Record<JsonType, string> = {
  object: "an object",
  array: "an array",
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean",
  null: "null",
};

function matchesType(value: unknown, type: JsonType | readonly JsonType[]): boolean {
  const actual = typeOf(value);
  if (typeof type === "string") return type === actual || (type === "number" && actual === "integer");
  for (let index = 0; index < type.length; index++) if (type[index] === actual || (type[index] === "number" && actual === "integer")) return true;
  return false;
}

/**
 * Where the walk is: field names and array indexes from the body down. One array shared by every walk (a walk never
 * yields), so a passing body costs no path strings; the text is made only for a failure.
 */
type Path = (string | number)[];

function fieldName(path: Path): string {
  let name = "";
  for (const step of path) name += typeof step === "number" ? `[${step}]` : name === "" ? step : `.${step}`;
  return name;
}

/** `Request body` for the whole body, `Field 'a.b'` for a field in it. */
const subject = (path: Path) => (path.length === 0 ? "Request body" : `Field '${fieldName(path)}'`);

const walkPath: Path = [];

/**
 * The first way `value` fails `schema`, as a message naming the field (`Field 'set_options.retries' must be an
 * integer, got "x"`), or undefined when it passes. A valid body, the common case, allocates nothing: objects are
 * walked with for-in and text is built only on a failure.
 */
export function schemaViolation(schema: JsonSchema, value: unknown): string | undefined {
  const found = violation(schema, value, walkPath);
  // A pass leaves the path empty; emptying it again would drop its storage, which the next walk would allocate anew.
  if (found !== undefined) walkPath.length = 0;
  return found;
}

function violation(schema: JsonSchema, value: unknown, path: Path): string | undefined {
  if (schema.enum !== undefined) {
    if (!schema.enum.includes(value as JsonScalar)) return `${subject(path)} must be one of ${schema.enum.join(", ")}, got ${JSON.stringify(value)}`;
  } else if (schema.type !== undefined && !matchesType(value, schema.type)) {
    const expected = (typeof schema.type === "string" ? [schema.type] : schema.type).map((type) => TYPE_NAMES[type]).join(" or ");
    const got = typeof value === "object" && value !== null ? TYPE_NAMES[typeOf(value)] : JSON.stringify(value);
    return `${subject(path)} must be ${path.length === 0 && expected === "an object" ? "a JSON object" : expected}, got ${got}`;
  }
  if (typeof value === "number") return numberViolation(schema, value, path);
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${subject(path)} must ${schema.minLength === 1 ? "not be empty" : `be at least ${schema.minLength} characters long`}`;
    return undefined;
  }
  if (Array.isArray(value)) return schema.items ? itemsViolation(schema.items, value, path) : undefined;
  if (isObject(value)) return objectViolation(schema, value, path);
  return undefined;
}

function numberViolation(schema: JsonSchema, value: number, path: Path): string | undefined {
  if (schema.minimum !== undefined && value < schema.minimum) return `${subject(path)} must be >= ${schema.minimum}, got ${value}`;
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return `${subject(path)} must be > ${schema.exclusiveMinimum}, got ${value}`;
  return undefined;
}

function itemsViolation(items: JsonSchema, value: readonly unknown[], path: Path): string | undefined {
  for (let index = 0; index < value.length; index++) {
    path.push(index);
    const found = violation(items, value[index], path);
    if (found) return found;
    path.pop();
  }
  return undefined;
}

function objectViolation(schema: JsonSchema, value: Record<string, unknown>, path: Path): string | undefined {
  const { properties, additionalProperties } = schema;
  let count = 0;
  for (const name in value) {
    count++;
    const declared = properties !== undefined && Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (declared === undefined && additionalProperties === false) {
      const expected = Object.keys(properties ?? {});
      return `${subject(path)} has an unknown field '${name}'; expected ${expected.length ? expected.join(", ") : "no fields"}`;
    }
    const fieldSchema = declared ?? (typeof additionalProperties === "object" ? additionalProperties : undefined);
    if (fieldSchema) {
      path.push(name);
      const found = violation(fieldSchema, value[name], path);
      if (found) return found;
      path.pop();
    }
  }
  const { required } = schema;
  if (required) {
    for (let index = 0; index < required.length; index++) {
      if (value[required[index]] === undefined) return `${subject([...path, required[index]])} is required`;
    }
  }
  const minProperties = schema.minProperties ?? 0;
  const maxProperties = schema.maxProperties ?? Infinity;
  if (count < minProperties || count > maxProperties) {
    const bounds = minProperties === maxProperties ? `exactly ${inWords(minProperties)}` : count < minProperties ? `at least ${inWords(minProperties)}` : `at most ${inWords(maxProperties)}`;
    const names = Object.keys(value);
    return `${subject(path)} must hold ${bounds} ${maxProperties === 1 ? "entry" : "entries"}, got ${count}${count ? ` (${names.join(", ")})` : ""}`;
  }
  return undefined;
}

/**
 * An object of exactly these fields, each required but those named `optional`: no other field is accepted (in a
 * body) or answered (in a response).
 */
export function objectSchema(properties: Record<string, JsonSchema>, options: { optional?: readonly string[]; description?: string } = {}): JsonSchema {
  const optional = new Set(options.optional);
  const required = Object.keys(properties).filter((name) => !optional.has(name));
  return {
    type: "object",
    ...(options.description ? { description: options.description } : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({ type: "array", ...(description ? { description } : {}), items });
