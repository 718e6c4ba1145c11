/**
 * The built-in registry's PROTOBUF type with Confluent's own JavaScript client and serde as the peers: `.proto` text
 * and the base64 of a serialized FileDescriptorProto (what Confluent's serializers send) are one schema, read back as
 * text or with `format=serialized`; an import is a reference, a well-known type needs none; Confluent's
 * ProtobufSerializer and ProtobufDeserializer round-trip a message through the registry; a text that is not a schema
 * is 42201 naming the problem.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { create, createFileRegistry, createMutableRegistry, fromBinary, toBinary, type DescMessage, type FileRegistry } from "@bufbuild/protobuf";
import { type FileDescriptorProto, FileDescriptorProtoSchema, FileDescriptorSetSchema, file_google_protobuf_timestamp } from "@bufbuild/protobuf/wkt";
import { ProtobufDeserializer, ProtobufSerializer, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { fixturePath } from "../../helpers/json-lines-program";
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
  const wkt = 'syntax = "proto3";\nimport "google/protobuf/duration.proto";\nimport "google/protobuf/struct.proto";\nmessage Timer { google.protobuf.Duration every = 1; google.protobuf.Struct labels = 2; }\n';
  const id = await client.register("timers-value", protobuf(wkt));
  assert.match((await client.getBySubjectAndId("timers-value", id)).schema, /\.google\.protobuf\.Duration every = 1;/);
});

test.run();
