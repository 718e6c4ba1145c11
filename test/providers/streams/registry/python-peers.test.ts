/**
 * The registry serdes with Python confluent-kafka's serializers as their peers (confluent_kafka.schema_registry: Avro
 * with fastavro, JSON Schema with jsonschema), against the schema registry built into Sluice: the sentences Python
 * writes (its serializer registers their schema itself) are counted exactly by a Sluice topology (every update
 * written: no record cache), and Python reads Sluice's counts back. Needs the repository's .venv with confluent-kafka
 * and those dependencies (.ci/run makes it).
 */
import { SchemaRegistryClient } from "@confluentinc/schemaregistry";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { fixturePath, JsonLinesProgram, pythonWithConfluentKafka } from "../../../helpers/json-lines-program";
import { startSluice, type RunningSluice } from "../../../helpers/sluice";
import { startHarness, type Harness } from "../streams-harness";
import { registryWordCount, SENTENCE, WORD_COUNT } from "./registry-word-count";

const SCRIPT = fixturePath("python", "registry_client.py");

const JSON_SENTENCE = { $schema: "http://json-schema.org/draft-07/schema#", title: "Sentence", type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const JSON_WORD_COUNT = { $schema: "http://json-schema.org/draft-07/schema#", title: "WordCount", type: "object", properties: { word: { type: "string" }, count: { type: "integer" } }, required: ["word", "count"] };

/** Each format: the serde's name, the Python script's, the schemas of the sentences and of the counts, and its registry type. */
const FORMATS = {
  avro: { serde: "avro", script: "avro", sentence: SENTENCE, wordCount: WORD_COUNT, schemaType: "AVRO" },
  json_schema: { serde: "json_schema", script: "json", sentence: JSON_SENTENCE, wordCount: JSON_WORD_COUNT, schemaType: "JSON" },
} as const;

const test = suite<{ sluice: RunningSluice; harness: Harness; programs: JsonLinesProgram[] }>("registry serdes with Python confluent-kafka's serializers");

test.before(async (context) => {
  context.sluice = await startSluice();
  context.harness = await startHarness();
  context.programs = [];
});
test.after(async ({ sluice, harness, programs }) => {
  await Promise.all((programs ?? []).map((program) => program.stop()));
  await harness?.close();
  await sluice?.close();
});

for (const [name, format] of Object.entries(FORMATS)) {
  test(`${name}: Python's sentences are counted exactly, and Python's deserializer reads Sluice's counts`, async ({ sluice, harness, programs }) => {
    const id = `py-${format.script}-wc`;
    const registryUrl = `${sluice.url}/schema-registry`;
    const bootstrap = harness.bootstrap.join(",");
    const python = pythonWithConfluentKafka();
    const sentences = ["to be or not to be", "that is the question", "to be"];
    const producer = JsonLinesProgram.start(python, [SCRIPT, format.script, "produce", bootstrap, registryUrl, `${id}-in`, JSON.stringify(format.sentence)], `python ${name} producer`);
    programs.push(producer);
    // One line per record, then the empty line that flushes them.
    const lines = sentences.map((text, i) => JSON.stringify({ key: `s${i}`, value: { text } }));
    assert.equal(await producer.ask(`${lines.join("\n")}\n`), { produced: 3 });
    const registered = await new SchemaRegistryClient({ baseURLs: [registryUrl] }).getLatestSchemaMetadata(`${id}-in-value`);
    assert.equal([registered.schemaType ?? "AVRO", JSON.parse(registered.schema)], [format.schemaType, format.sentence], "Python's serializer registered the sentence schema");
    await new SchemaRegistryClient({ baseURLs: [registryUrl] }).register(`${id}-out-value`, { schemaType: format.schemaType, schema: JSON.stringify(format.wordCount) });

    const runtime = harness.runtime([registryWordCount(id, { "schema.registry.url": registryUrl, "statestore.cache.max.bytes": 0 }, format.serde)]);
    await runtime.start();
    const words = sentences.flatMap((text) => text.split(" "));
    const reader = JsonLinesProgram.start(python, [SCRIPT, format.script, "read", bootstrap, registryUrl, `${id}-out`, String(words.length)], `python ${name} reader`);
    programs.push(reader);
    const { records } = (await reader.next(90_000)) as { records: { key: string; value: { word: string; count: number } }[] };
    const last = new Map(records.map((record) => [record.key, record.value]));
    const expected = new Map<string, number>();
    for (const word of words) expected.set(word, (expected.get(word) ?? 0) + 1);
    assert.equal(Object.fromEntries([...last].map(([word, value]) => [word, value])), Object.fromEntries([...expected].map(([word, count]) => [word, { word, count }])));
    assert.is(records.length, words.length, "one count per word read, none lost or doubled");
  });
}

test.run();
