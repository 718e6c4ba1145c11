import { suite } from "uvu";
import * as assert from "uvu/assert";
import { assertSupportedSchema, arrayOf, objectSchema, schemaViolation, type JsonSchema } from "../../../kernel/http/json-schema";

const test = suite("JSON Schema subset");

const body = objectSchema(
  {
    name: { type: "string", minLength: 1 },
    kind: { enum: ["a", "b"] },
    count: { type: ["integer", "string"], minimum: 0 },
    size: { type: "integer", exclusiveMinimum: 0 },
    ratio: { type: "number" },
    tags: arrayOf({ type: "string" }),
    one: { type: "object", additionalProperties: { type: "object" }, minProperties: 1, maxProperties: 1 },
  },
  { optional: ["kind", "count", "size", "ratio", "tags", "one"] },
);

test("a body that fits passes, integers counting as numbers", () => {
  assert.is(schemaViolation(body, { name: "x", kind: "a", count: "3", size: 1, ratio: 2, tags: ["t"], one: { get: {} } }), undefined);
});

test("each failure names the field and what was expected", () => {
  const cases: [unknown, string][] = [
    [[1], "Request body must be a JSON object, got an array"],
    ["x", 'Request body must be a JSON object, got "x"'],
    [{}, "Field 'name' is required"],
    [{ name: 1 }, "Field 'name' must be a string, got 1"],
    [{ name: "" }, "Field 'name' must not be empty"],
    [{ name: "x", extra: true }, "Request body has an unknown field 'extra'; expected name, kind, count, size, ratio, tags, one"],
    [{ name: "x", kind: "c" }, 'Field \'kind\' must be one of a, b, got "c"'],
    [{ name: "x", count: -1 }, "Field 'count' must be >= 0, got -1"],
    [{ name: "x", count: true }, "Field 'count' must be an integer or a string, got true"],
    [{ name: "x", size: 0 }, "Field 'size' must be > 0, got 0"],
    [{ name: "x", size: 1.5 }, "Field 'size' must be an integer, got 1.5"],
    [{ name: "x", ratio: null }, "Field 'ratio' must be a number, got null"],
    [{ name: "x", tags: ["a", 2] }, "Field 'tags[1]' must be a string, got 2"],
    [{ name: "x", one: {} }, "Field 'one' must hold exactly one entry, got 0"],
    [{ name: "x", one: { a: {}, b: {} } }, "Field 'one' must hold exactly one entry, got 2 (a, b)"],
    [{ name: "x", one: { a: 3 } }, "Field 'one.a' must be an object, got 3"],
  ];
  for (const [value, message] of cases) assert.is(schemaViolation(body, value), message, JSON.stringify(value));
});

test("a keyword the validator does not honour is refused, named with its place", () => {
  const schema = { type: "object", properties: { id: { type: "string", pattern: "^[a-z]+$" } } } as unknown as JsonSchema;
  assert.throws(() => assertSupportedSchema(schema), /keyword 'pattern' at #\/properties\/id is not supported/);
  assert.not.throws(() => assertSupportedSchema(body));
});

test.run();
