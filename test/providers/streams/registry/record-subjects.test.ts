/**
 * Writing under the record subject name strategies (Confluent's RecordNameStrategy and TopicRecordNameStrategy), with
 * the schema the topology gives the serde: the subject is the record's name — an Avro record's full name, a JSON
 * schema's title — or `<topic>-<name>`. The registry holds the schema under that subject, and Confluent's own
 * deserializers read the records. Without a given schema, or with one that names no record, writing is refused with
 * an error naming the key.
 */
import { Compatibility, SchemaRegistryClient } from "@confluentinc/schemaregistry";
import * as assert from "uvu/assert";
import { failure, framedValues, jsonSentence, send, sentences } from "./given-schema-apps";
import { registrySuite } from "./registry-topics";
import { SENTENCE } from "./registry-word-count";

const JSON_SENTENCE = { title: "rs.JsonSentence", type: "object", properties: { text: { type: "string" }, language: { type: "string" } }, required: ["text"] };

const test = registrySuite("registry serdes writing under the record subject name strategies");

test("record: an Avro schema given to the serde is registered under its record's full name, and AvroDeserializer reads the records", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await send(harness, "rs-avro-in", ["one", "two"]);
  const config = { "schema.registry.url": registryUrl, "auto.register.schemas": true, "value.subject.name.strategy": "record" };
  await harness.runtime([sentences("rs-avro", { serde: "avro", schema: SENTENCE }, config)]).start();
  const read = await framedValues(harness, registryUrl, "rs-avro-out", 2);
  const registered = await client.getLatestSchemaMetadata("test.Sentence");
  assert.equal(read, [[registered.id, { text: "one" }], [registered.id, { text: "two" }]]);
  assert.equal(JSON.parse(registered.schema), SENTENCE);
  assert.not.ok((await client.getAllSubjects()).includes("rs-avro-out-value"), "nothing under the topic's subject");
});

test("topic-record (by Confluent's class name): the records carry the latest schema of `<topic>-<full name>`", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const subject = "rs-tr-out-test.Sentence";
  await client.updateCompatibility(subject, Compatibility.NONE);
  await client.register(subject, { schemaType: "AVRO", schema: JSON.stringify(SENTENCE) });
  const latest = await client.register(subject, { schemaType: "AVRO", schema: JSON.stringify({ ...SENTENCE, fields: [...SENTENCE.fields, { name: "language", type: "string" }] }) });
  await send(harness, "rs-tr-in", ["latest"]);
  const config = { "schema.registry.url": registryUrl, "value.subject.name.strategy": "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy" };
  await harness.runtime([sentences("rs-tr", { serde: "avro", schema: SENTENCE }, config)]).start();
  assert.equal(await framedValues(harness, registryUrl, "rs-tr-out", 1), [[latest, { text: "latest", language: "en" }]]);
  assert.equal(await client.getAllVersions(subject), [1, 2], "nothing registered");
});

test("record: a JSON schema given to the serde is registered under its title, and JsonDeserializer (validating) reads the records", async ({ harness, registryUrl }) => {
  const { read, registered } = await jsonSentence(harness, registryUrl, "rs-json", JSON_SENTENCE, { "value.subject.name.strategy": "record" }, "rs.JsonSentence", "un");
  assert.equal(read, [[registered.id, { text: "un", language: "en" }]]);
  assert.equal([registered.schemaType, JSON.parse(registered.schema)], ["JSON", JSON_SENTENCE]);
});

test("a JSON schema without a title names no subject under topic-record: the application stops naming the key", async ({ harness, registryUrl }) => {
  const { title: _title, ...untitled } = JSON_SENTENCE;
  await send(harness, "rs-untitled-in", ["x"]);
  const config = { "schema.registry.url": registryUrl, "auto.register.schemas": true, "value.subject.name.strategy": "topic-record" };
  const exception = await failure(harness, sentences("rs-untitled", { serde: "json_schema", schema: untitled }, config));
  assert.match(exception, /value\.subject\.name\.strategy=topic-record: the json_schema serde writing a value to 'rs-untitled-out' names its subject after the record, and its JSON schema names none/);
});

test("a serde named alone under the record strategy is refused where it writes, naming the key and the way out", async ({ harness, registryUrl }) => {
  await send(harness, "rs-alone-in", ["x"]);
  const exception = await failure(harness, sentences("rs-alone", "avro", { "schema.registry.url": registryUrl, "value.subject.name.strategy": "record" }));
  assert.match(exception, /value\.subject\.name\.strategy=record: the avro serde writing a value to 'rs-alone-out' names its subject after the record's schema, which a JavaScript value does not carry; give the serde its schema/);
});

test.run();
