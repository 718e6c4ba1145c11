/**
 * The `json_schema` serde with Confluent's own JavaScript serializers as its peers, against the schema registry built
 * into Sluice: records that JsonSerializer writes are counted exactly by a Sluice topology reading them with
 * `json_schema`, its output reads back with JsonDeserializer, and records it cannot read (not framed, an unknown schema
 * id, not JSON, or with `json.fail.invalid.schema` a value its schema refuses) go to the dead-letter topic naming the
 * schema id and the reason.
 */
import { JsonDeserializer, JsonSerializer, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import * as assert from "uvu/assert";
import { eventually } from "../../../helpers/eventually";
import type { Harness } from "../streams-harness";
import { countsOf, headersOf, registrySuite } from "./registry-topics";
import { registryWordCount } from "./registry-word-count";

const SENTENCE = { $schema: "http://json-schema.org/draft-07/schema#", title: "Sentence", type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const WORD_COUNT = { title: "WordCount", type: "object", properties: { word: { type: "string" }, count: { type: "integer" } }, required: ["word", "count"], additionalProperties: false };
const json = (schema: object) => ({ schemaType: "JSON", schema: JSON.stringify(schema) });

const test = registrySuite("json_schema serde with Confluent's JavaScript serializers");

/** Registers the sentence and word-count schemas of topology `id` and writes `sentences` with JsonSerializer. */
async function writeSentences(harness: Harness, registryUrl: string, id: string, sentences: unknown[]): Promise<JsonSerializer> {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.register(`${id}-in-value`, json(SENTENCE));
  await client.register(`${id}-out-value`, json(WORD_COUNT));
  const serializer = new JsonSerializer(client, SerdeType.VALUE, { useLatestVersion: true });
  const messages = await Promise.all(sentences.map(async (value, i) => ({ key: `s${i}`, value: await serializer.serialize(`${id}-in`, value) })));
  await harness.producer.send({ topic: `${id}-in`, messages });
  return serializer;
}

test("JsonSerializer's records are counted exactly, and JsonDeserializer (validating) reads the counts back", async ({ harness, registryUrl }) => {
  await writeSentences(harness, registryUrl, "json-wc", [{ text: "the cat" }, { text: "the dog and the cat" }, { text: "a dog" }]);
  const runtime = harness.runtime([registryWordCount("json-wc", { "schema.registry.url": registryUrl, "json.fail.invalid.schema": true }, "json_schema")]);
  await runtime.start();
  const expected: Record<string, number> = { the: 3, cat: 2, dog: 2, and: 1, a: 1 };
  const reader = new JsonDeserializer(new SchemaRegistryClient({ baseURLs: [registryUrl] }), SerdeType.VALUE, { validate: true });
  const latest = await countsOf(harness, "json-wc-out", reader, expected);
  assert.equal(Object.fromEntries([...latest].map(([word, value]) => [word, value.count])), expected);
  assert.equal(latest.get("the"), { word: "the", count: 3 });
});

test("records the json_schema serde cannot read go to the dead-letter topic with the schema id and the reason", async ({ harness, registryUrl }) => {
  const serializer = await writeSentences(harness, registryUrl, "json-bad", []);
  const good = await serializer.serialize("json-bad-in", { text: "fine" });
  const unknownId = Buffer.from(good);
  unknownId.writeInt32BE(987_654, 1);
  const notJson = Buffer.concat([good.subarray(0, 5), Buffer.from("{oops")]);
  const misfit = Buffer.concat([good.subarray(0, 5), Buffer.from(JSON.stringify({ words: ["no", "text"] }))]);
  const values = [Buffer.from("plain text"), unknownId, notJson, misfit, await serializer.serialize("json-bad-in", { text: "also fine" })];
  await harness.producer.send({ topic: "json-bad-in", messages: values.map((value, i) => ({ key: `k${i}`, value })) });

  const config = { "schema.registry.url": registryUrl, "processing.error.policy": "dead_letter", "json.fail.invalid.schema": true };
  const runtime = harness.runtime([registryWordCount("json-bad", config, "json_schema")]);
  await runtime.start();
  const reader = new JsonDeserializer(new SchemaRegistryClient({ baseURLs: [registryUrl] }), SerdeType.VALUE, {});
  await countsOf(harness, "json-bad-out", reader, { also: 1, fine: 1 });
  const headers = await headersOf(harness, "json-bad-dlq", 4);
  assert.equal(headers.map((named) => [named["sluice.dlq.phase"], named["sluice.dlq.offset"]]), [["deserialization", "0"], ["deserialization", "1"], ["deserialization", "2"], ["deserialization", "3"]]);
  const errors = headers.map((named) => named["sluice.dlq.error"]);
  assert.match(errors[0], /^cannot deserialize the record of json-bad-in partition 0 at offset 0: .*magic byte/);
  assert.match(errors[1], /offset 1: schema id 987654: cannot be read from the registry/);
  assert.match(errors[2], /offset 2: .*JSON/);
  assert.match(errors[3], /offset 3: the record does not fit its JSON schema: .*required.*text/);
  await eventually(() => runtime.application("json-bad")?.state === "RUNNING", { what: "still RUNNING" });
});

test("with json.fail.invalid.schema a value its schema refuses is not written; without it, it is", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.register("json-strict-out-value", json(WORD_COUNT));
  await client.register("json-loose-out-value", json(WORD_COUNT));
  const provider = (id: string, validate: boolean) => ({
    name: `Writer-${id}`,
    version: "1.0.0",
    config: { "application.id": id, "schema.registry.url": registryUrl, "json.fail.invalid.schema": validate, "processing.error.policy": "dead_letter" },
    topology(builder: import("../../../../kernel/contracts/streams/dsl").StreamsBuilder) {
      builder.stream<string, string>(`${id}-in`, { keySerde: "string", valueSerde: "string" }).mapValues((word) => ({ word, count: word.length, extra: true })).to(`${id}-out`, { keySerde: "string", valueSerde: "json_schema" });
    },
  });
  for (const id of ["json-strict", "json-loose"]) await harness.producer.send({ topic: `${id}-in`, messages: [{ key: "k", value: "hello" }] });
  const runtime = harness.runtime([provider("json-strict", true), provider("json-loose", false)]);
  await runtime.start();
  const reader = new JsonDeserializer(new SchemaRegistryClient({ baseURLs: [registryUrl] }), SerdeType.VALUE, {});
  const loose = await countsOf(harness, "json-loose-out", reader, { k: 5 });
  assert.equal(loose.get("k"), { word: "hello", count: 5, extra: true }, "without validation the value is written as it is");
  const [strict] = await headersOf(harness, "json-strict-dlq", 1);
  assert.match(strict["sluice.dlq.error"], /the value does not fit its JSON schema: .*additionalProperties/);
});

test.run();
