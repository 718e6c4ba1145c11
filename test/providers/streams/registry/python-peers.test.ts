/**
 * The registry serdes with Python confluent-kafka's serializers as their peers (confluent_kafka.schema_registry: Avro
 * with fastavro, JSON Schema with jsonschema, Protobuf with google.protobuf), against the schema registry built into
 * Sluice: the sentences Python writes (its serializer registers their schema itself) are counted exactly by a Sluice
 * topology (every update written: no record cache), and Python reads Sluice's counts back. Needs the repository's
 * .venv with confluent-kafka and those dependencies (.ci/run makes it).
 */
import { SchemaRegistryClient } from "@confluentinc/schemaregistry";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { fixturePath, JsonLinesProgram, pythonWithConfluentKafka } from "../../../helpers/json-lines-program";
import { startSluice, type RunningSluice } from "../../../helpers/sluice";
import { startHarness, type Harness } from "../streams-harness";
import { SENTENCE_FILE, WORD_COUNT_FILE, WORD_COUNT_PROTO } from "./protobuf-schemas";
import { registryWordCount, SENTENCE, WORD_COUNT } from "./registry-word-count";

const SCRIPT = fixturePath("python", "registry_client.py");

const JSON_SENTENCE = { $schema: "http://json-schema.org/draft-07/schema#", title: "Sentence", type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const JSON_WORD_COUNT = { $schema: "http://json-schema.org/draft-07/schema#", title: "WordCount", type: "object", properties: { word: { type: "string" }, count: { type: "integer" } }, required: ["word", "count"] };

/**
 * Each format: the serde's name, the Python script's, the schema Python's producer is given and how the registry then
 * shows it, the schema registered for the counts (its text) and the one Python's reader is given, if any.
 */
interface PeerFormat {
  serde: "avro" | "json_schema" | "protobuf";
  script: string;
  schemaType: string;
  sentence: string;
  /** What the registry's text of the sentence schema Python registered shows, to compare with `sentenceShown`. */
  shown: (registered: string) => unknown;
  sentenceShown: unknown;
  wordCount: string;
  readerArgs: string[];
}

const jsonFormat = (serde: "avro" | "json_schema", script: string, schemaType: string, sentence: object, wordCount: object): PeerFormat => ({
  serde,
  script,
  schemaType,
  sentence: JSON.stringify(sentence),
  shown: (registered) => JSON.parse(registered),
  sentenceShown: sentence,
  wordCount: JSON.stringify(wordCount),
  readerArgs: [],
});

const FORMATS: Record<string, PeerFormat> = {
  avro: jsonFormat("avro", "avro", "AVRO", SENTENCE, WORD_COUNT),
  json_schema: jsonFormat("json_schema", "json", "JSON", JSON_SENTENCE, JSON_WORD_COUNT),
  // Python builds its message classes from the FileDescriptorProto; the registry answers with the file's .proto text.
  protobuf: {
    serde: "protobuf",
    script: "protobuf",
    schemaType: "PROTOBUF",
    sentence: JSON.stringify({ file: SENTENCE_FILE, message: "test.Sentence" }),
    shown: (registered) => registered.match(/(message|string) \w+/g),
    sentenceShown: ["message Sentence", "string text"],
    wordCount: WORD_COUNT_PROTO,
    readerArgs: [JSON.stringify({ file: WORD_COUNT_FILE, message: "test.WordCount" })],
  },
};

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
    const producer = JsonLinesProgram.start(python, [SCRIPT, format.script, "produce", bootstrap, registryUrl, `${id}-in`, format.sentence], `python ${name} producer`);
    programs.push(producer);
    // One line per record, then the empty line that flushes them.
    const lines = sentences.map((text, i) => JSON.stringify({ key: `s${i}`, value: { text } }));
    assert.equal(await producer.ask(`${lines.join("\n")}\n`), { produced: 3 });
    const registered = await new SchemaRegistryClient({ baseURLs: [registryUrl] }).getLatestSchemaMetadata(`${id}-in-value`);
    assert.equal([registered.schemaType ?? "AVRO", format.shown(registered.schema)], [format.schemaType, format.sentenceShown], "Python's serializer registered the sentence schema");
    await new SchemaRegistryClient({ baseURLs: [registryUrl] }).register(`${id}-out-value`, { schemaType: format.schemaType, schema: format.wordCount });

    const runtime = harness.runtime([registryWordCount(id, { "schema.registry.url": registryUrl, "statestore.cache.max.bytes": 0 }, format.serde)]);
    await runtime.start();
    const words = sentences.flatMap((text) => text.split(" "));
    const reader = JsonLinesProgram.start(python, [SCRIPT, format.script, "read", bootstrap, registryUrl, `${id}-out`, String(words.length), ...format.readerArgs], `python ${name} reader`);
    programs.push(reader);
    const { records } = (await reader.next(90_000)) as { records: { key: string; value: { word: string; count: number | string } }[] };
    // Protobuf's JSON mapping writes 64-bit integers as strings.
    const last = new Map(records.map((record) => [record.key, { ...record.value, count: Number(record.value.count) }]));
    const expected = new Map<string, number>();
    for (const word of words) expected.set(word, (expected.get(word) ?? 0) + 1);
    assert.equal(Object.fromEntries([...last].map(([word, value]) => [word, value])), Object.fromEntries([...expected].map(([word, count]) => [word, { word, count }])));
    assert.is(records.length, words.length, "one count per word read, none lost or doubled");
  });
}

test.run();
