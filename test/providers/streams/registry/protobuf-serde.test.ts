/**
 * The `protobuf` serde with Confluent's own JavaScript serializers as its peers, against the schema registry built
 * into Sluice: records that ProtobufSerializer writes are counted exactly by a Sluice topology reading them with
 * `protobuf`, and ProtobufDeserializer reads its output back; a schema importing another subject's file round-trips,
 * written with the .proto text the topology gives (the registry parses it, the serde reads it back serialized), its
 * second message's index in the frame; an import of an import is read; with use.latest.version=false the given text's own id is written; records it cannot read (an unknown schema id, bytes that are not the message,
 * a message index out of range) and values that do not fit the message go to the dead-letter topic naming the schema
 * id or the field; under the record strategies the subject is the message's full name; a query of a store of Protobuf
 * values answers them as JSON.
 */
import { create, createMutableRegistry } from "@bufbuild/protobuf";
import { ProtobufDeserializer, ProtobufSerializer, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import { Kafka, logLevel } from "kafkajs";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../../kernel/contracts/streams/dsl";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../../../kernel/contracts/kafka-bootstrap";
import { TOPOLOGY_PROVIDER_CONTRACT, type TopologyProvider } from "../../../../kernel/contracts/streams/topology-provider";
import { eventually } from "../../../helpers/eventually";
import { startSluice } from "../../../helpers/sluice";
import { query, recordsOf } from "../../../plugins/applications-api/query-client";
import type { Harness } from "../streams-harness";
import { ADDRESS_PROTO, CITY_PROTO, COUNTRY_PROTO, CUSTOMER_PROTO, messageOf, proto, SENTENCE_FILE, TRIP_PROTO, WORD_COUNT_PROTO } from "./protobuf-schemas";
import { countsOf, headersOf, readUntil, registrySuite, type RecordReader } from "./registry-topics";
import { registryWordCount } from "./registry-word-count";

const SENTENCE = messageOf(SENTENCE_FILE, "test.Sentence");

/** ProtobufDeserializer's messages with their int64 fields (bigints) as numbers, as the tests compare them. */
function protobufReader(registryUrl: string): RecordReader {
  const deserializer = new ProtobufDeserializer(new SchemaRegistryClient({ baseURLs: [registryUrl] }), SerdeType.VALUE, {});
  return {
    async deserialize(topic, payload) {
      const { $typeName, ...fields } = (await deserializer.deserialize(topic, payload)) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, typeof value === "bigint" ? Number(value) : value]));
    },
  };
}

/** Writes `texts` to `topic` as Sentence messages with ProtobufSerializer, which registers the Sentence file (base64) itself. */
async function writeSentences(harness: Harness, registryUrl: string, topic: string, texts: string[]): Promise<ProtobufSerializer> {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const serializer = new ProtobufSerializer(client, SerdeType.VALUE, { autoRegisterSchemas: true, registry: createMutableRegistry(SENTENCE) });
  const messages = await Promise.all(texts.map(async (text, i) => ({ key: `s${i}`, value: await serializer.serialize(topic, create(SENTENCE, { text })) })));
  await harness.producer.send({ topic, messages });
  return serializer;
}

/** Application `id` of `topology`, with `config`. */
const app = (id: string, config: TopologyProvider["config"], topology: (builder: StreamsBuilder) => void): TopologyProvider => ({ name: id, version: "1.0.0", config: { "application.id": id, ...config }, topology });

const test = registrySuite("protobuf serde with Confluent's JavaScript serializers");

test("ProtobufSerializer's records are counted exactly, and ProtobufDeserializer reads the Protobuf counts back", async ({ harness, registryUrl }) => {
  await writeSentences(harness, registryUrl, "pb-wc-in", ["the cat", "the dog and the cat", "a dog"]);
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  assert.is((await client.getLatestSchemaMetadata("pb-wc-in-value")).schemaType, "PROTOBUF", "ProtobufSerializer registered its file");
  await client.register("pb-wc-out-value", proto(WORD_COUNT_PROTO));
  await harness.runtime([registryWordCount("pb-wc", { "schema.registry.url": registryUrl }, "protobuf")]).start();
  const expected: Record<string, number> = { the: 3, cat: 2, dog: 2, and: 1, a: 1 };
  const latest = await countsOf(harness, "pb-wc-out", protobufReader(registryUrl), expected);
  assert.equal(Object.fromEntries([...latest].map(([word, value]) => [word, value.count])), expected);
  assert.equal(latest.get("the"), { word: "the", count: 3 });
});

test("a schema importing another subject's file round-trips: read through the reference, written with the given .proto text and the second message's index", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const references = [{ name: "test/address.proto", subject: "test-address", version: 1 }];
  await client.register("test-address", proto(ADDRESS_PROTO));
  await client.register("pb-ref-in-value", proto(CUSTOMER_PROTO, references));
  // The writer's message classes, built by Confluent's own deserializer from the registry's serialized file.
  const file = await new ProtobufDeserializer(client, SerdeType.VALUE, {}).toFileDesc(client, await client.getLatestSchemaMetadata("pb-ref-in-value", "serialized"));
  const customer = file.messages.find((message) => message.typeName === "test.Customer")!;
  const serializer = new ProtobufSerializer(client, SerdeType.VALUE, { useLatestVersion: true, registry: createMutableRegistry(file) });
  const value = await serializer.serialize("pb-ref-in", create(customer, { fullName: "Ada", address: { city: "London" }, visits: 3n }));
  await harness.producer.send({ topic: "pb-ref-in", messages: [{ key: "c1", value }] });

  const provider = app("pb-ref", { "schema.registry.url": registryUrl, "auto.register.schemas": true }, (builder) => {
    builder
      .stream<string, { fullName: string; address: { city: string }; visits: string }>("pb-ref-in", { keySerde: "string", valueSerde: "protobuf" })
      .mapValues((read) => ({ fullName: read.fullName.toUpperCase(), address: read.address, visits: Number(read.visits) + 1 }))
      .to("pb-ref-out", { keySerde: "string", valueSerde: { serde: "protobuf", schema: CUSTOMER_PROTO, references, message: "test.Customer" } });
  });
  await harness.runtime([provider]).start();
  const reader = protobufReader(registryUrl);
  const read: unknown[] = [];
  let frame: Buffer | undefined;
  await readUntil(harness, "pb-ref-out", async (message) => {
    frame = message.value!;
    read.push(await reader.deserialize("pb-ref-out", message.value!));
    return true;
  });
  assert.equal(read, [{ fullName: "ADA", address: { $typeName: "test.Address", city: "London" }, visits: 4 }]);
  const registered = await client.getLatestSchemaMetadata("pb-ref-out-value");
  assert.equal(registered.references, references, "the given schema was registered with its reference");
  assert.equal([frame![0], frame!.readInt32BE(1), [...frame!.subarray(5, 7)]], [0, registered.id, [2, 2]], "magic byte, the registered id, then the indexes [1] (zigzag varints: count 1, index 1)");
});

test("an import of an import is fetched serialized too: a topology writes Trip records (importing City, importing Country) and reads them back", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.register("test-country", proto(COUNTRY_PROTO));
  await client.register("test-city", proto(CITY_PROTO, [{ name: "test/country.proto", subject: "test-country", version: 1 }]));
  await harness.producer.send({ topic: "pb-chain-in", messages: [{ key: "t1", value: "Lyon" }] });
  const provider = app("pb-chain", { "schema.registry.url": registryUrl, "auto.register.schemas": true }, (builder) => {
    const trip = { serde: "protobuf", schema: TRIP_PROTO, references: [{ name: "test/city.proto", subject: "test-city", version: 1 }] } as const;
    builder
      .stream<string, string>("pb-chain-in", { keySerde: "string", valueSerde: "string" })
      .mapValues((city) => ({ to: { name: city, country: { code: "FR" } } }))
      .to("pb-chain-trips", { keySerde: "string", valueSerde: trip });
    builder
      .stream<string, { to: { name: string; country: { code: string } } }>("pb-chain-trips", { keySerde: "string", valueSerde: "protobuf" })
      .mapValues((read) => `${read.to.name}, ${read.to.country.code}`)
      .to("pb-chain-out", { keySerde: "string", valueSerde: "string" });
  });
  await harness.runtime([provider]).start();
  const out = await harness.readTopic("pb-chain-out", (records) => records.length > 0);
  assert.equal(out.map((record) => record.value?.toString()), ["Lyon, FR"]);
});

test("records the protobuf serde cannot read, and values that do not fit the message, go to the dead-letter topic naming the schema id or the field", async ({ harness, registryUrl }) => {
  const serializer = await writeSentences(harness, registryUrl, "pb-bad-in", ["fine"]);
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.register("pb-bad-out-value", proto(WORD_COUNT_PROTO));
  const good = await serializer.serialize("pb-bad-in", create(SENTENCE, { text: "also fine" }));
  const id = good.readInt32BE(1);
  const unknownId = Buffer.from(good);
  unknownId.writeInt32BE(987_654, 1);
  const notTheMessage = Buffer.concat([good.subarray(0, 6), Buffer.from([0x0a, 0x30, 0x61])]); // text's length past the end
  const outOfRange = Buffer.concat([good.subarray(0, 5), Buffer.from([0x02, 0x0a]), good.subarray(6)]); // indexes [5]
  await harness.producer.send({ topic: "pb-bad-in", messages: [unknownId, notTheMessage, outOfRange, good].map((value, i) => ({ key: `k${i}`, value })) });

  const provider = app("pb-bad", { "schema.registry.url": registryUrl, "processing.error.policy": "dead_letter" }, (builder) => {
    builder
      .stream<string, { text: string }>("pb-bad-in", { keySerde: "string", valueSerde: "protobuf" })
      .mapValues((sentence) => (sentence.text === "fine" ? { word: sentence.text, count: 1 } : { word: sentence.text, count: 1, colour: "red" }))
      .to("pb-bad-out", { keySerde: "string", valueSerde: "protobuf" });
  });
  const runtime = harness.runtime([provider]);
  await runtime.start();
  assert.equal(await countsOf(harness, "pb-bad-out", protobufReader(registryUrl), { s0: 1 }), new Map([["s0", { word: "fine", count: 1 }]]));
  const headers = await headersOf(harness, "pb-bad-dlq", 4);
  const errors = headers.map((named) => named["sluice.dlq.error"]);
  assert.equal(headers.map((named) => named["sluice.dlq.offset"]), ["1", "2", "3", "4"]);
  assert.match(errors[0], /offset 1: schema id 987654: cannot be read from the registry/);
  assert.match(errors[1], new RegExp(`offset 2: schema id ${id}: premature EOF`));
  assert.match(errors[2], new RegExp(`offset 3: schema id ${id}: message index 5 out of range, schema has 1 top-level message\\(s\\)`));
  assert.match(errors[3], /cannot decode message test\.WordCount from JSON: key "colour" is unknown/);
  await eventually(() => runtime.application("pb-bad")?.state === "RUNNING", { what: "still RUNNING" });
});

test("with use.latest.version=false the given .proto text is looked up under the subject and its id written, not the latest's", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const given = await client.register("pb-given-out-value", proto(WORD_COUNT_PROTO));
  const latest = await client.register("pb-given-out-value", proto(WORD_COUNT_PROTO.replace("int64 count = 2;", "int64 count = 2;\n  string language = 3;")));
  await harness.producer.send({ topic: "pb-given-in", messages: [{ key: "k", value: "hello" }] });
  const provider = app("pb-given", { "schema.registry.url": registryUrl, "use.latest.version": false }, (builder) => {
    builder
      .stream<string, string>("pb-given-in", { keySerde: "string", valueSerde: "string" })
      .mapValues((word) => ({ word, count: 1 }))
      .to("pb-given-out", { keySerde: "string", valueSerde: { serde: "protobuf", schema: WORD_COUNT_PROTO } });
  });
  await harness.runtime([provider]).start();
  const read: [number, unknown][] = [];
  const reader = protobufReader(registryUrl);
  await readUntil(harness, "pb-given-out", async (message) => {
    read.push([message.value!.readInt32BE(1), await reader.deserialize("pb-given-out", message.value!)]);
    return true;
  });
  assert.ok(latest !== given, "the subject's latest is another schema");
  assert.equal(read, [[given, { word: "hello", count: 1 }]]);
});

test("record and topic-record: the given .proto text is registered under its message's full name, and ProtobufDeserializer reads the records", async ({ harness, registryUrl }) => {
  await harness.producer.send({ topic: "pb-record-in", messages: [{ key: "k", value: "hello" }] });
  const written = (id: string, strategy: string, message?: string) =>
    app(id, { "schema.registry.url": registryUrl, "auto.register.schemas": true, "value.subject.name.strategy": strategy }, (builder) => {
      builder
        .stream<string, string>("pb-record-in", { keySerde: "string", valueSerde: "string" })
        .mapValues((word) => ({ word, count: 1 }))
        .to(`${id}-out`, { keySerde: "string", valueSerde: { serde: "protobuf", schema: WORD_COUNT_PROTO, ...(message === undefined ? {} : { message }) } });
    });
  await harness.runtime([written("pb-record", "record"), written("pb-topic-record", "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy", "test.WordCount")]).start();
  const reader = protobufReader(registryUrl);
  for (const topic of ["pb-record-out", "pb-topic-record-out"]) {
    const read: unknown[] = [];
    await readUntil(harness, topic, async (message) => {
      read.push(await reader.deserialize(topic, message.value!));
      return true;
    });
    assert.equal(read, [{ word: "hello", count: 1 }], topic);
  }
  const subjects = await new SchemaRegistryClient({ baseURLs: [registryUrl] }).getAllSubjects();
  assert.ok(subjects.includes("test.WordCount"), `record: the first message's full name (${subjects.join(", ")})`);
  assert.ok(subjects.includes("pb-topic-record-out-test.WordCount"), "topic-record: the topic and the message named");
  assert.not.ok(subjects.includes("pb-record-out-value") || subjects.includes("pb-topic-record-out-value"), "nothing under the topic strategy's subjects");
});

test("a query of a store of protobuf values answers them as JSON (the Protobuf JSON mapping)", async () => {
  const provider = app("pb-query", { "auto.register.schemas": true }, (builder) => {
    builder
      .stream<string, { text: string }>("pb-query-in", { keySerde: "string", valueSerde: "protobuf" })
      .mapValues((sentence) => ({ word: sentence.text, count: sentence.text.length }))
      .groupByKey({ keySerde: "string", valueSerde: { serde: "protobuf", schema: WORD_COUNT_PROTO } })
      .reduce((_old, latest) => latest, { storeName: "latest", keySerde: "string", valueSerde: { serde: "protobuf", schema: WORD_COUNT_PROTO } });
  });
  const sluice = await startSluice({ services: { [TOPOLOGY_PROVIDER_CONTRACT]: [provider] } });
  try {
    const registryUrl = `${sluice.url}/schema-registry`;
    const serializer = new ProtobufSerializer(new SchemaRegistryClient({ baseURLs: [registryUrl] }), SerdeType.VALUE, { autoRegisterSchemas: true, registry: createMutableRegistry(SENTENCE) });
    const value = await serializer.serialize("pb-query-in", create(SENTENCE, { text: "hello" }));
    const [bootstrap] = sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
    const producer = new Kafka({ clientId: "pb-query-test", brokers: [bootstrap], logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    await producer.send({ topic: "pb-query-in", messages: [{ key: "k", value }] });
    await producer.disconnect();
    const records = await eventually(async () => {
      const found = recordsOf(await query(sluice.url, "pb-query", "latest", { type: "key_value", query: { get: { key: "k" } } }));
      return found.length > 0 && found;
    }, { what: "the store's record", timeoutMs: 20_000 });
    assert.equal(records.map(({ key, value }) => ({ key, value })), [{ key: "k", value: { word: "hello", count: "5" } }]);
  } finally {
    await sluice.close();
  }
});

test.run();
