/**
 * The built-in registry's JSON schema type and schema references, with Confluent's own JavaScript client as the peer:
 * it registers JSON schemas and reads them back, the compatibility levels refuse what Confluent's JSON rules refuse
 * (409), a schema that is not one is 42201, and an Avro schema uses a named type of another subject by reference,
 * which then cannot be deleted (42206) while it is referenced.
 */
import { SchemaRegistryClient } from "@confluentinc/schemaregistry";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { http, startSluice, type RunningSluice } from "../../helpers/sluice";

const test = suite<{ sluice: RunningSluice; registry: string; client: SchemaRegistryClient }>("schema types and references of the built-in registry");

test.before(async (context) => {
  context.sluice = await startSluice();
  context.registry = `${context.sluice.url}/schema-registry`;
  context.client = new SchemaRegistryClient({ baseURLs: [context.registry] });
});
test.after(async ({ sluice }) => void (await sluice?.close()));

const json = (schema: object) => ({ schemaType: "JSON", schema: JSON.stringify(schema, null, 2) });
const post = (url: string, body: unknown) => http(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const put = (url: string, body: unknown) => http(url, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function expectError(pending: ReturnType<typeof http>, status: number, errorCode: number): Promise<string> {
  const answer = await pending;
  assert.is(answer.status, status, answer.text);
  assert.is(answer.json().error_code, errorCode, answer.text);
  return answer.json().message as string;
}

/** Whether `schema` may follow the subject's latest version at `level`, and the reasons when not. */
async function check(registry: string, subject: string, level: string, schema: object): Promise<string[]> {
  assert.is((await put(`${registry}/config/${subject}`, { compatibility: level })).status, 200);
  const answer = (await post(`${registry}/compatibility/subjects/${subject}/versions/latest?verbose=true`, json(schema))).json();
  assert.type(answer.is_compatible, "boolean", JSON.stringify(answer));
  return answer.is_compatible === true ? [] : (answer.messages as string[]);
}

const OPEN = { type: "object", properties: { id: { type: "string" }, amount: { type: "number" } }, required: ["id"] };
const CLOSED = { ...OPEN, additionalProperties: false };

test("Confluent's client registers JSON schemas and reads them back; a schema that is not one is 42201", async ({ registry, client }) => {
  const id = await client.register("orders-json-value", json(OPEN));
  assert.is(await client.register("orders-json-value", { schemaType: "JSON", schema: JSON.stringify(OPEN) }), id, "layout does not matter");
  const reader = new SchemaRegistryClient({ baseURLs: [registry] });
  const latest = await reader.getLatestSchemaMetadata("orders-json-value");
  assert.equal([latest.id, latest.schemaType, JSON.parse(latest.schema)], [id, "JSON", OPEN]);
  assert.equal((await http(`${registry}/schemas/ids/${id}`)).json(), { schemaType: "JSON", schema: JSON.stringify(OPEN) });
  assert.is(await reader.getId("orders-json-value", json(OPEN)), id, "lookup by schema");
  assert.is(await reader.register("orders-avro-value", { schema: JSON.stringify({ type: "string" }) }) !== id, true, "a JSON schema and an Avro one are not the same schema");

  await expectError(post(`${registry}/subjects/bad-json-value/versions`, { schemaType: "JSON", schema: "{not json" }), 422, 42201);
  assert.match(await expectError(post(`${registry}/subjects/bad-json-value/versions`, json({ type: "strung" })), 422, 42201), /\/type must name JSON types/);
  assert.match(await expectError(post(`${registry}/subjects/bad-json-value/versions`, json({ properties: { a: 5 } })), 422, 42201), /\/properties\/a must be an object or a boolean/);
  assert.match(await expectError(post(`${registry}/subjects/bad-json-value/versions`, json({ required: "id" })), 422, 42201), /\/required must be a list/);
  await expectError(post(`${registry}/subjects/bad-json-value/versions`, { schemaType: "XML", schema: "<a/>" }), 422, 42201);
});

test("JSON compatibility: properties added and removed with open and closed content models, types, required", async ({ registry, client }) => {
  await client.register("compat-open-value", json(OPEN));
  await client.register("compat-closed-value", json(CLOSED));
  const withNote = (base: object) => ({ ...base, properties: { ...(base as typeof OPEN).properties, note: { type: "string" } } });
  const without = ({ properties: { amount: _amount, ...rest }, ...base }: typeof OPEN) => ({ ...base, properties: rest });

  assert.equal(await check(registry, "compat-open-value", "NONE", { type: "string" }), [], "NONE takes anything");
  // BACKWARD: the new schema reads what the old one allowed.
  assert.match((await check(registry, "compat-open-value", "BACKWARD", withNote(OPEN))).join(), /\/properties\/note: property added to an open content model/);
  assert.equal(await check(registry, "compat-closed-value", "BACKWARD", withNote(CLOSED)), [], "an optional property added to a closed model");
  assert.equal(await check(registry, "compat-open-value", "BACKWARD", without(OPEN)), [], "a property removed from an open model");
  assert.match((await check(registry, "compat-closed-value", "BACKWARD", without(CLOSED as typeof OPEN))).join(), /\/properties\/amount: property removed from a closed content model/);
  assert.match((await check(registry, "compat-open-value", "BACKWARD", { ...OPEN, required: ["id", "amount"] })).join(), /required property 'amount' added/);
  assert.match((await check(registry, "compat-open-value", "BACKWARD", { ...OPEN, properties: { ...OPEN.properties, amount: { type: "integer" } } })).join(), /\/properties\/amount: type number narrowed to integer/);
  assert.equal(await check(registry, "compat-open-value", "BACKWARD", { ...OPEN, properties: { ...OPEN.properties, amount: { type: ["number", "null"] } } }), [], "a type widened");
  assert.match((await check(registry, "compat-open-value", "BACKWARD", { ...OPEN, anyOf: [{ required: ["amount"] }] })).join(), /'anyOf' changed \(not compared, so refused\)/);
  // FORWARD: the old schema reads what the new one allows; FULL: both.
  assert.equal(await check(registry, "compat-closed-value", "FORWARD", without(CLOSED as typeof OPEN)), [], "a property removed from a closed model, read by the old one");
  assert.match((await check(registry, "compat-closed-value", "FORWARD", withNote(CLOSED))).join(), /an earlier schema cannot read data written with the new one: \/properties\/note: property removed from a closed content model/);
  assert.equal((await check(registry, "compat-closed-value", "FULL", withNote(CLOSED))).length, 1);

  await put(`${registry}/config/compat-open-value`, { compatibility: "BACKWARD" });
  const message = await expectError(post(`${registry}/subjects/compat-open-value/versions`, json(withNote(OPEN))), 409, 409);
  assert.match(message, /incompatible with an earlier schema.*property added to an open content model/);
  assert.equal(await client.getAllVersions("compat-open-value"), [1], "nothing refused was registered");
  assert.is(await client.register("compat-open-value", json(without(OPEN))), (await client.getLatestSchemaMetadata("compat-open-value")).id);
  assert.equal(await client.getAllVersions("compat-open-value"), [1, 2]);
});

test("an Avro schema uses another subject's named type by reference; the referenced version cannot be deleted", async ({ registry, client }) => {
  const ADDRESS = { type: "record", name: "Address", namespace: "shop", fields: [{ name: "city", type: "string" }] };
  const CUSTOMER = { type: "record", name: "Customer", namespace: "shop", fields: [{ name: "name", type: "string" }, { name: "address", type: "shop.Address" }] };
  const addressId = await client.register("shop.Address", { schemaType: "AVRO", schema: JSON.stringify(ADDRESS) });
  const references = [{ name: "shop.Address", subject: "shop.Address", version: 1 }];
  await expectError(post(`${registry}/subjects/customers-value/versions`, { schema: JSON.stringify(CUSTOMER) }), 422, 42201);
  assert.match(await expectError(post(`${registry}/subjects/customers-value/versions`, { schema: JSON.stringify(CUSTOMER), references: [{ ...references[0], version: 7 }] }), 422, 42201), /version 7 of subject 'shop\.Address', which does not exist/);
  const customerId = await client.register("customers-value", { schemaType: "AVRO", schema: JSON.stringify(CUSTOMER), references });
  assert.ok(customerId !== addressId);

  const reader = new SchemaRegistryClient({ baseURLs: [registry] });
  const read = await reader.getBySubjectAndId("customers-value", customerId);
  assert.equal(read.references, references);
  assert.is(await reader.getId("customers-value", { schemaType: "AVRO", schema: JSON.stringify(CUSTOMER), references }), customerId, "lookup with the references");
  assert.equal((await http(`${registry}/subjects/shop.Address/versions/1/referencedby`)).json(), [customerId]);
  assert.equal((await http(`${registry}/subjects/customers-value/versions/1/referencedby`)).json(), []);
  await expectError(http(`${registry}/subjects/shop.Address/versions/2/referencedby`), 404, 40402);

  // The compatibility check parses both versions with the referenced type resolved.
  const CUSTOMER_V2 = { ...CUSTOMER, fields: [...CUSTOMER.fields, { name: "vip", type: "boolean", default: false }] };
  assert.ok((await client.register("customers-value", { schemaType: "AVRO", schema: JSON.stringify(CUSTOMER_V2), references })) > customerId);

  await expectError(http(`${registry}/subjects/shop.Address/versions/1`, { method: "DELETE" }), 422, 42206);
  await expectError(http(`${registry}/subjects/shop.Address`, { method: "DELETE" }), 422, 42206);
  assert.equal(await reader.getAllVersions("shop.Address"), [1], "nothing was deleted");
  assert.equal((await http(`${registry}/subjects/customers-value`, { method: "DELETE" })).json(), [1, 2]);
  await expectError(http(`${registry}/subjects/shop.Address`, { method: "DELETE" }), 422, 42206);
  assert.equal((await http(`${registry}/subjects/customers-value?permanent=true`, { method: "DELETE" })).json(), [1, 2]);
  assert.equal((await http(`${registry}/subjects/shop.Address`, { method: "DELETE" })).json(), [1], "unreferenced, it can go");
});

test.run();
