/**
 * The built-in registry's PROTOBUF type with Confluent's own JavaScript client and serde as the peers: `.proto` text
 * and the base64 of a serialized FileDescriptorProto (what Confluent's serializers send) are one schema, read back as
 * text or with `format=serialized`; an import is a reference, a well-known type needs none; Confluent's
 * ProtobufSerializer and ProtobufDeserializer round-trip a message through the registry, and so do Python
 * confluent-kafka's (test/fixtures/python/protobuf_registry_client.py); a text that is not a schema is 42201 naming
 * the problem; the compatibility levels refuse what Confluent's Protobuf rules refuse.
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { create, createFileRegistry, createMutableRegistry, fromBinary, toBinary, type DescMessage, type FileRegistry } from "@bufbuild/protobuf";
import { type FileDescriptorProto, FileDescriptorProtoSchema, FileDescriptorSetSchema, file_google_protobuf_timestamp } from "@bufbuild/protobuf/wkt";
import { ProtobufDeserializer, ProtobufSerializer, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { fixturePath, pythonWithConfluentKafka } from "../../helpers/json-lines-program";
import { http, startSluice, type RunningSluice } from "../../helpers/sluice";

const test = suite<{ sluice: RunningSluice; registry: string; client: SchemaRegistryClient }>("the built-in registry's PROTOBUF type");

test.before(async (context) => {
  context.sluice = await startSluice();
  context.registry = `${context.sluice.url}/schema-registry`;
  context.client = new SchemaRegistryClient({ baseURLs: [context.registry] });
});
test.after(async ({ sluice }) => void (await sluice?.close()));

const FIXTURES = fixturePath("protobuf");
const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file), "utf8");
const protobuf = (schema: string, references: { name: string; subject: string; version: number }[] = []) => ({ schemaType: "PROTOBUF", schema, references });
const post = (url: string, body: unknown) => http(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const base64 = (file: FileDescriptorProto) => Buffer.from(toBinary(FileDescriptorProtoSchema, file)).toString("base64");
const COMMON_REFERENCE = { name: "shop/common.proto", subject: "shop/common.proto", version: 1 };

/** protoc's descriptors of `file` and of what it imports, by file name (Debian's protobuf-compiler; .ci/run installs it). */
function compiled(file: string): { set: FileRegistry; files: Map<string, FileDescriptorProto> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-protoc-"));
  try {
    const out = path.join(dir, "set.pb");
    execFileSync("protoc", [`-I${FIXTURES}`, "--include_imports", `--descriptor_set_out=${out}`, path.join(FIXTURES, file)], { stdio: ["ignore", "ignore", "pipe"] });
    const set = fromBinary(FileDescriptorSetSchema, fs.readFileSync(out));
    return { set: createFileRegistry(set), files: new Map(set.file.map((f) => [f.name, f])) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function expectError(pending: ReturnType<typeof http>, status: number, errorCode: number): Promise<string> {
  const answer = await pending;
  assert.is(answer.status, status, answer.text);
  assert.is(answer.json().error_code, errorCode, answer.text);
  return answer.json().message as string;
}

test(".proto text and its serialized descriptor are one schema: registered, looked up and read back in both forms", async ({ registry, client }) => {
  const { files } = compiled("shop/order.proto");
  const commonId = await client.register("shop/common.proto", protobuf(read("shop/common.proto")));
  const id = await client.register("orders-value", protobuf(read("shop/order.proto"), [COMMON_REFERENCE]));
  const serialized = protobuf(base64(files.get("shop/order.proto")!), [COMMON_REFERENCE]);
  assert.is(await client.register("orders-value", serialized), id, "the serialized form registers as the same schema");
  assert.is(await client.register("returns-value", serialized), id, "one schema, one id, across subjects and forms");
  assert.is(await client.getId("orders-value", serialized), id, "a lookup by the serialized form finds the text's version");
  assert.is(await client.getVersion("orders-value", protobuf(read("shop/order.proto"), [COMMON_REFERENCE])), 1);
  assert.equal(await client.getAllVersions("orders-value"), [1]);
  assert.is(await client.register("shop/common.proto", protobuf(base64(files.get("shop/common.proto")!))), commonId);

  const text = await client.getSchemaMetadata("orders-value", 1);
  assert.equal([text.schemaType, text.references], ["PROTOBUF", [COMMON_REFERENCE]]);
  assert.match(text.schema, /^syntax = "proto3";\npackage shop;\n\nimport "shop\/common.proto";\nimport "google\/protobuf\/timestamp.proto";/);
  assert.match(text.schema, /\n  map<int32, \.shop\.Order\.Line> lines_by_position = 5;\n/);
  assert.match(text.schema, /\.google\.protobuf\.Timestamp placed_at = 9 \[json_name = "placed"\];/);
  assert.is((await client.getBySubjectAndId("orders-value", id)).schema, text.schema, "by id, the same canonical text");

  // Confluent's deserializer reads the writer's schema and each reference so, and builds a registry of them (with a
  // client of its own: the client's cache keeps one answer whatever the format).
  const reader = new SchemaRegistryClient({ baseURLs: [registry] });
  const main = fromBinary(FileDescriptorProtoSchema, Buffer.from((await reader.getBySubjectAndId("orders-value", id, "serialized")).schema, "base64"));
  const common = fromBinary(FileDescriptorProtoSchema, Buffer.from((await reader.getSchemaMetadata("shop/common.proto", 1, true, "serialized")).schema, "base64"));
  assert.equal([main.name, main.dependency], ["default", ["shop/common.proto", "google/protobuf/timestamp.proto"]]);
  const order = main.messageType.find((m) => m.name === "Order")!;
  assert.equal(
    order.field.filter((f) => f.typeName !== "").map((f) => f.typeName),
    [".shop.common.Money", ".shop.Order.LabelsEntry", ".shop.Order.Line", ".shop.Order.LinesByPositionEntry", ".google.protobuf.Timestamp", ".shop.Order.Status"],
  );
  const resolved = createFileRegistry(main, (name) => (name === "shop/common.proto" ? { ...common, name } : name === file_google_protobuf_timestamp.proto.name ? file_google_protobuf_timestamp : undefined));
  const money = resolved.getMessage("shop.Order")?.fields.find((f) => f.name === "total");
  assert.is(money?.message?.typeName, "shop.common.Money");
  const lookedUp = await post(`${registry}/subjects/orders-value?format=serialized`, serialized);
  assert.is(lookedUp.json().schema, base64(main), "a lookup answers the serialized form when asked");
  const versionText = await http(`${registry}/subjects/orders-value/versions/1/schema?format=serialized`);
  assert.is(versionText.text, base64(main));
  for (const format of ["", "default", "no-such-format"]) {
    const answer = await http(`${registry}/schemas/ids/${id}?format=${format}`);
    assert.is(answer.json().schema, text.schema, `format '${format}' answers the canonical text, as Confluent's registry does`);
  }
  const avro = await client.register("plain-value", { schemaType: "AVRO", schema: '{"type":"string"}' });
  assert.is((await http(`${registry}/schemas/ids/${avro}?format=serialized`)).json().schema, '{"type":"string"}', "a type without formats answers its text");
});

test("format=ignore_extensions leaves out extend blocks and extension ranges", async ({ registry, client }) => {
  const id = await client.register("legacy-value", protobuf(read("legacy.proto")));
  const full = (await http(`${registry}/schemas/ids/${id}`)).json().schema as string;
  assert.match(full, /extensions 100 to 199, 1000 to 1999;/);
  assert.match(full, /extend \.legacy\.v1\.Account \{\n  optional string tag = 100;\n\}/);
  const ignored = (await http(`${registry}/schemas/ids/${id}?format=ignore_extensions`)).json().schema as string;
  assert.not.match(ignored, /extend|extensions/);
  assert.match(ignored, /required string id = 1;/);
});

test("Confluent's ProtobufSerializer and ProtobufDeserializer round-trip a message through the registry", async ({ registry }) => {
  const { set } = compiled("shop/order.proto");
  const orderType = set.getMessage("shop.Order") as DescMessage;
  const moneyType = set.getMessage("shop.common.Money") as DescMessage;
  const serializer = new ProtobufSerializer(new SchemaRegistryClient({ baseURLs: [registry] }), SerdeType.VALUE, { autoRegisterSchemas: true, registry: createMutableRegistry(set.getFile("shop/order.proto")!) });
  const written = create(orderType, {
    id: "o-1",
    total: create(moneyType, { currency: 1, units: 12n, nanos: 500 }),
    labels: { channel: "web" },
    note: "leave at the door",
    payment: { case: "voucherCode", value: "SPRING" },
    status: 1,
  } as never);
  const bytes = await serializer.serialize("payments", written);
  assert.is(bytes[0], 0, "Confluent's framing: magic byte 0");

  // A fresh deserializer knows nothing: it reads the writer's schema and its reference from the registry.
  const deserializer = new ProtobufDeserializer(new SchemaRegistryClient({ baseURLs: [registry] }), SerdeType.VALUE, {});
  const readBack = (await deserializer.deserialize("payments", bytes)) as Record<string, any>;
  assert.is(readBack.$typeName, "shop.Order");
  assert.equal([readBack.id, readBack.total.units, readBack.total.nanos, readBack.labels, readBack.note, readBack.payment, readBack.status], [
    "o-1",
    12n,
    500,
    { channel: "web" },
    "leave at the door",
    { case: "voucherCode", value: "SPRING" },
    1,
  ]);
  const versions = (await http(`${registry}/subjects/payments-value/versions/1`)).json();
  assert.equal(versions.references, [{ name: "shop/common.proto", subject: "shop/common.proto", version: 1 }], "the serializer referenced the registered import");
});

test("a schema that is not one is 42201 naming the problem; an import needs a reference, a well-known type none", async ({ registry, client }) => {
  const versions = `${registry}/subjects/broken-value/versions`;
  assert.match(await expectError(post(versions, protobuf('syntax = "proto3"; message A { int32 x = ; }')), 422, 42201), /illegal|invalid/i);
  assert.match(await expectError(post(versions, protobuf('syntax = "proto3"; message A { Missing m = 1; }')), 422, 42201), /type 'Missing' is not defined/);
  assert.match(await expectError(post(versions, protobuf(read("shop/order.proto"))), 422, 42201), /not defined/);
  assert.match(await expectError(post(versions, protobuf('syntax = "proto3"; import "other.proto"; message A {}')), 422, 42201), /import "other.proto" has no reference/);
  assert.match(await expectError(post(versions, protobuf('edition = "2023"; message A {}')), 422, 42201), /editions are not supported/);
  assert.match(await expectError(post(versions, protobuf('syntax = "proto3"; message A { int32 x = 1 [(my.opt) = 1]; }')), 422, 42201), /option '\(my\.opt\)'/);
  assert.match(await expectError(post(versions, protobuf("AAAA////")), 422, 42201), /not a serialized FileDescriptorProto/);
  assert.match(await expectError(post(versions, protobuf('syntax = "proto3"; option java_package = "a\\"b"; message A {}')), 422, 42201), /the escape '\\"'/);
  const wkt = 'syntax = "proto3";\nimport "google/protobuf/duration.proto";\nimport "google/protobuf/struct.proto";\nmessage Timer { google.protobuf.Duration every = 1; google.protobuf.Struct labels = 2; }\n';
  const id = await client.register("timers-value", protobuf(wkt));
  assert.match((await client.getBySubjectAndId("timers-value", id)).schema, /\.google\.protobuf\.Duration every = 1;/);
});

test("Python confluent-kafka registers and looks up Protobuf schemas and round-trips a message with its Protobuf serde", async ({ registry }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-protoc-"));
  try {
    const set = path.join(dir, "order.pb");
    execFileSync("protoc", [`-I${FIXTURES}`, "--include_imports", `--descriptor_set_out=${set}`, path.join(FIXTURES, "shop/order.proto")], { stdio: ["ignore", "ignore", "pipe"] });
    const script = fixturePath("python", "protobuf_registry_client.py");
    // Not execFileSync: Sluice answers the peer from this process.
    const { stdout } = await promisify(execFile)(pythonWithConfluentKafka(), [script, registry, set, "py-orders", path.join(FIXTURES, "shop/common.proto"), path.join(FIXTURES, "shop/order.proto")], {
      encoding: "utf8",
      timeout: 120_000,
    });
    const answer = JSON.parse(stdout.trim().split("\n").pop()!);
    assert.is(answer.common_type, "PROTOBUF");
    assert.match(answer.common_schema, /^syntax = "proto3";\npackage shop\.common;/);
    assert.is(answer.magic, 0);
    assert.equal(answer.read, { id: "py-1", note: "from python", voucher: "AUTUMN", units: 7, labels: { channel: "python" } });
    assert.is(answer.lookup.version, 1, "the text finds the version Python's serializer registered in serialized form");
    const registered = (await http(`${registry}/subjects/py-orders-value/versions/1`)).json();
    assert.equal(registered.references, [COMMON_REFERENCE]);
    assert.is(registered.id, answer.lookup.id);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const put = (url: string, body: unknown) => http(url, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** Whether `schema` may follow the subject's latest version at `level`: the refused differences' types, or none. */
async function refusals(registry: string, subject: string, level: string, schema: string): Promise<string[]> {
  assert.is((await put(`${registry}/config/${subject}`, { compatibility: level })).status, 200);
  const answer = (await post(`${registry}/compatibility/subjects/${subject}/versions/latest?verbose=true`, protobuf(schema))).json();
  assert.type(answer.is_compatible, "boolean", JSON.stringify(answer));
  assert.is(answer.is_compatible, answer.messages.length === 0, JSON.stringify(answer));
  return (answer.messages as string[]).map((message) => /\b([A-Z]+(?:_[A-Z0-9]+)+) at /.exec(message)?.[1] ?? message);
}

const ORDER_V1 = `syntax = "proto3";
package shop;
message Order {
  string id = 1;
  int32 quantity = 2;
  Line line = 3;
  map<string, int32> counts = 4;
  oneof payment {
    string card = 5;
    string voucher = 6;
  }
  int64 total = 7;
  message Line { string sku = 1; }
  message Gift { string note = 1; }
}
`;
/** ORDER_V1 with `from` replaced by `to`. */
const changed = (from: string, to: string) => {
  assert.ok(ORDER_V1.includes(from), from);
  return ORDER_V1.replace(from, to);
};
const LEGACY_V1 = 'syntax = "proto2";\nmessage Account {\n  required string id = 1;\n  optional int32 level = 2;\n}\n';

test("Protobuf compatibility: Confluent's differences refuse or pass under each level, 409 on register", async ({ registry, client }) => {
  await client.register("compat-value", protobuf(ORDER_V1));
  const backward = (schema: string) => refusals(registry, "compat-value", "BACKWARD", schema);
  assert.equal(await backward(changed("package shop;", "package store;")), ["PACKAGE_CHANGED"]);
  assert.equal(await backward(changed("  message Gift { string note = 1; }\n", "")), ["MESSAGE_REMOVED"]);
  assert.equal(await backward(changed("int32 quantity = 2;", "string quantity = 2;")), ["FIELD_SCALAR_KIND_CHANGED"]);
  assert.equal(await backward(changed("int32 quantity = 2;", "Line quantity = 2;")), ["FIELD_KIND_CHANGED"]);
  assert.equal(await backward(changed("map<string, int32> counts = 4;", "repeated int32 counts = 4;")), ["FIELD_KIND_CHANGED"]);
  assert.equal(await backward(changed("Line line = 3;", "Gift line = 3;")), ["FIELD_NAMED_TYPE_CHANGED"]);
  assert.equal(await backward(changed("map<string, int32> counts = 4;", "map<string, string> counts = 4;")), ["FIELD_SCALAR_KIND_CHANGED"]);
  assert.equal(await backward(changed("    string voucher = 6;\n", "")), ["ONEOF_FIELD_REMOVED"]);
  assert.equal(await backward(changed("  string id = 1;\n", "").replace("  int64 total = 7;\n", "  oneof ids {\n    string id = 1;\n    int64 total = 7;\n  }\n")), ["MULTIPLE_FIELDS_MOVED_TO_ONEOF"]);
  assert.equal(await backward(changed("  int64 total = 7;\n", "").replace("string voucher = 6;", "string voucher = 6;\n    int64 total = 7;")), ["FIELD_MOVED_TO_EXISTING_ONEOF"]);

  // What Confluent's rules let readers take.
  for (const [from, to] of [
    ["int32 quantity = 2;", "int64 quantity = 2;"], // int32, int64, uint32, uint64, bool, enum: one wire type
    ["string id = 1;", "bytes id = 1;"],
    ["int32 quantity = 2;", "int32 amount = 2;"], // renamed
    ["  int64 total = 7;\n", ""], // removed
    ["  int64 total = 7;\n", "  int64 total = 7;\n  string channel = 8;\n  enum Kind { KIND_UNSPECIFIED = 0; }\n"], // added
    ["  oneof payment {\n    string card = 5;\n    string voucher = 6;\n  }\n", ""], // a whole oneof removed
    ["  oneof payment {\n    string card = 5;\n", "  string card = 5;\n  oneof payment {\n"], // a member moved out of its oneof
    ["int64 total = 7;", "optional int64 total = 7;"], // a proto3 optional field's oneof is no oneof
  ]) {
    assert.equal(await backward(changed(from, to)), [], `${from} → ${to}`);
  }

  // The same difference one way or the other: a oneof member removed is refused backward, a member added forward.
  const fewer = changed("    string voucher = 6;\n", "");
  assert.equal(await refusals(registry, "compat-value", "FORWARD", fewer), []);
  assert.equal(await refusals(registry, "compat-value", "FULL", fewer), ["ONEOF_FIELD_REMOVED"]);
  const more = changed("string voucher = 6;", "string voucher = 6;\n    string wallet = 9;");
  assert.equal(await refusals(registry, "compat-value", "BACKWARD", more), []);
  assert.equal(await refusals(registry, "compat-value", "FORWARD", more), ["ONEOF_FIELD_REMOVED"]);
  assert.equal(await refusals(registry, "compat-value", "NONE", changed("package shop;", "package store;")), []);

  await put(`${registry}/config/compat-value`, { compatibility: "BACKWARD" });
  const refused = await post(`${registry}/subjects/compat-value/versions`, protobuf(changed("int32 quantity = 2;", "double quantity = 2;")));
  assert.equal([refused.status, refused.json().error_code], [409, 409], refused.text);
  assert.match(refused.json().message, /FIELD_SCALAR_KIND_CHANGED/);
});

test("Protobuf compatibility: required fields and written labels (proto2), and transitive levels", async ({ registry, client }) => {
  await client.register("legacy-compat-value", protobuf(LEGACY_V1));
  const backward = (schema: string) => refusals(registry, "legacy-compat-value", "BACKWARD", schema);
  assert.equal(await backward(LEGACY_V1.replace("}", "  required string owner = 3;\n}")), ["REQUIRED_FIELD_ADDED"]);
  assert.equal(await backward(LEGACY_V1.replace("  required string id = 1;\n", "")), ["REQUIRED_FIELD_REMOVED"]);
  assert.equal(await backward(LEGACY_V1.replace("optional int32 level", "repeated int32 level")), ["FIELD_NUMERIC_LABEL_CHANGED"]);
  assert.equal(await backward(LEGACY_V1.replace("}", "  optional string owner = 3;\n}")), []);

  // v2 drops quantity, v3 brings it back as a string: fine after v2, not after v1.
  await client.register("transitive-value", protobuf(ORDER_V1));
  await client.register("transitive-value", protobuf(changed("  int32 quantity = 2;\n", "")));
  const v3 = changed("int32 quantity = 2;", "string quantity = 2;");
  assert.equal(await refusals(registry, "transitive-value", "BACKWARD", v3), []);
  await put(`${registry}/config/transitive-value`, { compatibility: "BACKWARD_TRANSITIVE" });
  const refused = await post(`${registry}/compatibility/subjects/transitive-value/versions?verbose=true`, protobuf(v3));
  assert.is(refused.json().is_compatible, false, refused.text);
  assert.match(refused.json().messages.join(" "), /FIELD_SCALAR_KIND_CHANGED/);
});

test.run();
