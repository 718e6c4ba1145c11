/**
 * The `avro` serde with Python confluent-kafka's AvroSerializer and AvroDeserializer (confluent_kafka.schema_registry,
 * fastavro) as its peers, against the schema registry built into Sluice: the sentences Python writes (its serializer
 * registers their schema itself) are counted exactly by a Sluice topology (every update written: no record cache), and Python reads Sluice's Avro counts
 * back. Needs the repository's .venv with confluent-kafka and its Avro dependencies (.ci/run makes it).
 */
import { SchemaRegistryClient } from "@confluentinc/schemaregistry";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { fixturePath, JsonLinesProgram, pythonWithConfluentKafka } from "../../../helpers/json-lines-program";
import { startSluice, type RunningSluice } from "../../../helpers/sluice";
import { startHarness, type Harness } from "../streams-harness";
import { avroWordCount, SENTENCE, WORD_COUNT } from "./avro-word-count";

const SCRIPT = fixturePath("python", "avro_client.py");

const test = suite<{ sluice: RunningSluice; harness: Harness; programs: JsonLinesProgram[] }>("avro serde with Python confluent-kafka's Avro serializers");

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

test("Python's Avro sentences are counted exactly, and Python's AvroDeserializer reads Sluice's Avro counts", async ({ sluice, harness, programs }) => {
  const registryUrl = `${sluice.url}/schema-registry`;
  const bootstrap = harness.bootstrap.join(",");
  const python = pythonWithConfluentKafka();
  const sentences = ["to be or not to be", "that is the question", "to be"];
  const producer = JsonLinesProgram.start(python, [SCRIPT, "produce", bootstrap, registryUrl, "py-wc-in", JSON.stringify(SENTENCE)], "python avro producer");
  programs.push(producer);
  // One line per record, then the empty line that flushes them.
  const lines = sentences.map((text, i) => JSON.stringify({ key: `s${i}`, value: { text } }));
  assert.equal(await producer.ask(`${lines.join("\n")}\n`), { produced: 3 });
  const registered = await new SchemaRegistryClient({ baseURLs: [registryUrl] }).getLatestSchemaMetadata("py-wc-in-value");
  assert.equal(JSON.parse(registered.schema), SENTENCE, "Python's serializer registered the sentence schema");
  await new SchemaRegistryClient({ baseURLs: [registryUrl] }).register("py-wc-out-value", { schemaType: "AVRO", schema: JSON.stringify(WORD_COUNT) });

  const runtime = harness.runtime([avroWordCount("py-wc", { "schema.registry.url": registryUrl, "statestore.cache.max.bytes": 0 })]);
  await runtime.start();
  const words = sentences.flatMap((text) => text.split(" "));
  const reader = JsonLinesProgram.start(python, [SCRIPT, "read", bootstrap, registryUrl, "py-wc-out", String(words.length)], "python avro reader");
  programs.push(reader);
  const { records } = (await reader.next(90_000)) as { records: { key: string; value: { word: string; count: number } }[] };
  const last = new Map(records.map((record) => [record.key, record.value]));
  const expected = new Map<string, number>();
  for (const word of words) expected.set(word, (expected.get(word) ?? 0) + 1);
  assert.equal(Object.fromEntries([...last].map(([word, value]) => [word, value])), Object.fromEntries([...expected].map(([word, count]) => [word, { word, count }])));
  assert.is(records.length, words.length, "one count per word read, none lost or doubled");
});

test.run();
