/**
 * A registry serde given the schema it writes (`{ serde: "avro", schema }`), as Kafka Streams users give
 * SpecificAvroSerde its class: with auto.register.schemas=true it registers the schema under a subject that did not
 * exist and Confluent's AvroDeserializer reads what it wrote; a schema the subject's compatibility refuses stops the
 * application naming the subject and the registry's reason; with use.latest.version=false it writes with the given
 * schema's id rather than the subject's latest; given no schema, auto.register.schemas=true is refused naming the key.
 * `json_schema` alike. Reading, `avro` reads records of other schemas as the given one (Avro's schema resolution), as
 * SpecificAvroSerde does.
 */
import { AvroSerializer, Compatibility, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import * as assert from "uvu/assert";
import type { TopologyProvider } from "../../../../kernel/contracts/streams/topology-provider";
import { failure, framedValues, jsonSentence, send, sentences } from "./given-schema-apps";
import { registrySuite } from "./registry-topics";
import { SENTENCE } from "./registry-word-count";

const avro = (schema: object) => ({ schemaType: "AVRO", schema: JSON.stringify(schema) });
const SENTENCE_IN_LANGUAGE = { ...SENTENCE, fields: [...SENTENCE.fields, { name: "language", type: "string" }] };

const test = registrySuite("registry serdes given the schema they write");

test("with auto.register.schemas=true the given schema is registered under a new subject, once, and AvroDeserializer reads the records", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  assert.not.ok((await client.getAllSubjects()).includes("gs-reg-out-value"), "the subject does not exist before");
  await send(harness, "gs-reg-in", ["one", "two", "three"]);
  await harness.runtime([sentences("gs-reg", { serde: "avro", schema: SENTENCE }, { "schema.registry.url": registryUrl, "auto.register.schemas": true })]).start();
  const read = await framedValues(harness, registryUrl, "gs-reg-out", 3);
  const registered = await client.getLatestSchemaMetadata("gs-reg-out-value");
  assert.equal(read, [[registered.id, { text: "one" }], [registered.id, { text: "two" }], [registered.id, { text: "three" }]]);
  assert.equal(await client.getAllVersions("gs-reg-out-value"), [1]);
  assert.equal(JSON.parse(registered.schema), SENTENCE);
});

test("json_schema given its JSON schema registers it under a new subject, and JsonDeserializer (validating) reads the records", async ({ harness, registryUrl }) => {
  const TEXT = { type: "object", properties: { text: { type: "string" }, language: { type: "string" } }, required: ["text"] };
  const { read, registered } = await jsonSentence(harness, registryUrl, "gs-json", TEXT, { "json.fail.invalid.schema": true }, "gs-json-out-value", "one");
  assert.equal(read, [[registered.id, { text: "one", language: "en" }]]);
  assert.equal([registered.schemaType, JSON.parse(registered.schema)], ["JSON", TEXT]);
});

test("a given schema the subject's BACKWARD compatibility refuses stops the application naming the subject and the registry's reason", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.register("gs-bad-out-value", avro(SENTENCE));
  await client.updateCompatibility("gs-bad-out-value", Compatibility.BACKWARD);
  await send(harness, "gs-bad-in", ["lost"]);
  const exception = await failure(harness, sentences("gs-bad", { serde: "avro", schema: SENTENCE_IN_LANGUAGE }, { "schema.registry.url": registryUrl, "auto.register.schemas": true }));
  assert.match(exception, /the avro serde cannot register its value schema under subject 'gs-bad-out-value': .*incompatible/i);
  assert.equal(await client.getAllVersions("gs-bad-out-value"), [1], "nothing registered");
});

test("with use.latest.version=false the records carry the given schema's id, not the subject's latest", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.updateCompatibility("gs-pin-out-value", Compatibility.NONE);
  const given = await client.register("gs-pin-out-value", avro(SENTENCE));
  const latest = await client.register("gs-pin-out-value", avro(SENTENCE_IN_LANGUAGE));
  assert.ok(given !== latest);
  await send(harness, "gs-pin-in", ["pinned"]);
  const config = { "schema.registry.url": registryUrl, "auto.register.schemas": false, "use.latest.version": false };
  await harness.runtime([sentences("gs-pin", { serde: "avro", schema: JSON.stringify(SENTENCE) }, config)]).start();
  assert.equal(await framedValues(harness, registryUrl, "gs-pin-out", 1), [[given, { text: "pinned" }]]);
  assert.equal(await client.getAllVersions("gs-pin-out-value"), [1, 2], "nothing registered");
});

test("given no schema, auto.register.schemas=true is refused where the serde writes, naming the key", async ({ harness, registryUrl }) => {
  await send(harness, "gs-none-in", ["x"]);
  const exception = await failure(harness, sentences("gs-none", "avro", { "schema.registry.url": registryUrl, "auto.register.schemas": true }));
  assert.match(exception, /auto\.register\.schemas=true: the avro serde writing a value to 'gs-none-out' has no schema to register/);
});

test("reading, records of other writer schemas are read as the given schema: defaults fill missing fields, extra fields are dropped", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.updateCompatibility("gs-read-in-value", Compatibility.NONE);
  const plain = await client.register("gs-read-in-value", avro(SENTENCE));
  const counted = await client.register("gs-read-in-value", avro({ ...SENTENCE, fields: [...SENTENCE.fields, { name: "count", type: "int" }] }));
  const writeWith = (id: number, value: object) => new AvroSerializer(client, SerdeType.VALUE, { useSchemaId: id }).serialize("gs-read-in", value);
  const values = [await writeWith(plain, { text: "old" }), await writeWith(counted, { text: "extra", count: 3 })];
  await harness.producer.send({ topic: "gs-read-in", messages: values.map((value, i) => ({ key: `k${i}`, value })) });
  const WITH_LANGUAGE = { ...SENTENCE, fields: [...SENTENCE.fields, { name: "language", type: "string", default: "und" }] };
  const provider: TopologyProvider = {
    name: "gs-read",
    version: "1.0.0",
    config: { "application.id": "gs-read", "schema.registry.url": registryUrl },
    topology: (builder) =>
      builder
        .stream<string, Record<string, unknown>>("gs-read-in", { keySerde: "string", valueSerde: { serde: "avro", schema: WITH_LANGUAGE } })
        .mapValues((sentence) => JSON.stringify(sentence))
        .to("gs-read-out", { keySerde: "string", valueSerde: "string" }),
  };
  await harness.runtime([provider]).start();
  const out = await harness.readTopic("gs-read-out", (records) => records.length >= 2);
  assert.equal(out.map((record) => JSON.parse(record.value!.toString())), [{ text: "old", language: "und" }, { text: "extra", language: "und" }]);
});

test.run();
