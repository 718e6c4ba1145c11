/**
 * The `avro` serde with Confluent's own JavaScript serializers as its peers, against the schema registry built into
 * Sluice: records that AvroSerializer writes are counted exactly by a Sluice topology reading them with `avro`, its
 * Avro output reads back with AvroDeserializer, and records it cannot read (not framed, an unknown schema id, bytes
 * that do not fit their schema) go to the dead-letter topic naming topic, partition, offset and the reason.
 */
import { AvroDeserializer, AvroSerializer, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import { Kafka, logLevel } from "kafkajs";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../../kernel/contracts/streams/dsl";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../../../kernel/contracts/kafka-bootstrap";
import { TOPOLOGY_PROVIDER_CONTRACT, type TopologyProvider } from "../../../../kernel/contracts/streams/topology-provider";
import { eventually } from "../../../helpers/eventually";
import { readToEnd } from "../../../helpers/read-to-end";
import { startSluice } from "../../../helpers/sluice";
import { countsOf, headersOf, registrySuite } from "./registry-topics";
import { registryWordCount, SENTENCE, WORD_COUNT } from "./registry-word-count";

const avro = (schema: object) => ({ schemaType: "AVRO", schema: JSON.stringify(schema) });

/** An application `id` of `topology` reading the registry at `registryUrl`. */
const registryApp = (id: string, registryUrl: string, topology: (builder: StreamsBuilder) => void): TopologyProvider => ({
  name: id,
  version: "1.0.0",
  config: { "application.id": id, "schema.registry.url": registryUrl },
  topology,
});

const test = registrySuite("avro serde with Confluent's JavaScript serializers");

test("AvroSerializer's records are counted exactly, and AvroDeserializer reads the Avro counts back", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.register("js-wc-in-value", avro(SENTENCE));
  await client.register("js-wc-out-value", avro(WORD_COUNT));
  const serializer = new AvroSerializer(client, SerdeType.VALUE, { useLatestVersion: true });
  const sentences = ["the cat", "the dog and the cat", "a dog"];
  const messages = await Promise.all(sentences.map(async (text, i) => ({ key: `s${i}`, value: await serializer.serialize("js-wc-in", { text }) })));
  await harness.producer.send({ topic: "js-wc-in", messages });

  const runtime = harness.runtime([registryWordCount("js-wc", { "schema.registry.url": registryUrl })]);
  await runtime.start();
  const expected: Record<string, number> = { the: 3, cat: 2, dog: 2, and: 1, a: 1 };
  const reader = new AvroDeserializer(new SchemaRegistryClient({ baseURLs: [registryUrl] }), SerdeType.VALUE, {});
  const latest = await countsOf(harness, "js-wc-out", reader, expected);
  assert.equal(Object.fromEntries([...latest].map(([word, value]) => [word, value.count])), expected);
  assert.equal({ ...latest.get("the") }, { word: "the", count: 3 });
});

test("a store with the avro serde writes its changelog subject's schema and reads its own records back", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  for (const [subject, schema] of [["js-agg-in-value", SENTENCE], ["js-agg-out-value", WORD_COUNT], ["js-agg-totals-changelog-value", WORD_COUNT]] as const) await client.register(subject, avro(schema));
  const serializer = new AvroSerializer(client, SerdeType.VALUE, { useLatestVersion: true });
  const messages = await Promise.all(["b a", "a c a"].map(async (text, i) => ({ key: `s${i}`, value: await serializer.serialize("js-agg-in", { text }) })));
  await harness.producer.send({ topic: "js-agg-in", messages });
  const provider = registryApp("js-agg", registryUrl, (builder) => {
    builder
      .stream<string, { text: string }>("js-agg-in", { keySerde: "string", valueSerde: "avro" })
      .flatMapValues((sentence) => sentence.text.split(" "))
      .groupBy((_key, word) => word, { keySerde: "string", valueSerde: "string" })
      .aggregate(() => ({ word: "", count: 0 }), (word, _value, total: { word: string; count: number }) => ({ word, count: total.count + 1 }), { storeName: "totals", keySerde: "string", valueSerde: "avro" })
      .toStream()
      .to("js-agg-out", { keySerde: "string", valueSerde: "avro" });
  });
  const runtime = harness.runtime([provider]);
  await runtime.start();
  const reader = new AvroDeserializer(new SchemaRegistryClient({ baseURLs: [registryUrl] }), SerdeType.VALUE, {});
  await countsOf(harness, "js-agg-out", reader, { a: 3, b: 1, c: 1 });
  // Sluice's own markers (a fence) sit in the changelog too: the store's records are those of its keys.
  const changelog = await harness.readTopic("js-agg-totals-changelog", (records) => records.some((record) => record.key === "a"));
  const totals = changelog.filter((record) => record.key === "a");
  const registered = await client.getLatestSchemaMetadata("js-agg-totals-changelog-value");
  assert.equal([totals[0].value![0], totals[0].value!.readInt32BE(1)], [0, registered.id], "the changelog's records name the changelog subject's schema");
});

test("a record whose schema references another subject's named type is read with the referenced type", async ({ harness, registryUrl }) => {
  const ADDRESS = { type: "record", name: "Address", namespace: "test", fields: [{ name: "city", type: "string" }] };
  const CUSTOMER = { type: "record", name: "Customer", namespace: "test", fields: [{ name: "name", type: "string" }, { name: "address", type: "test.Address" }] };
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.register("test.Address", avro(ADDRESS));
  await client.register("js-ref-in-value", { ...avro(CUSTOMER), references: [{ name: "test.Address", subject: "test.Address", version: 1 }] });
  const serializer = new AvroSerializer(client, SerdeType.VALUE, { useLatestVersion: true });
  const value = await serializer.serialize("js-ref-in", { name: "Ada", address: { city: "London" } });
  await harness.producer.send({ topic: "js-ref-in", messages: [{ key: "c1", value }] });
  const provider = registryApp("js-ref", registryUrl, (builder) => {
    builder
      .stream<string, { name: string; address: { city: string } }>("js-ref-in", { keySerde: "string", valueSerde: "avro" })
      .mapValues((customer) => `${customer.name}@${customer.address.city}`)
      .to("js-ref-out", { keySerde: "string", valueSerde: "string" });
  });
  await harness.runtime([provider]).start();
  const out = await harness.readTopic("js-ref-out", (records) => records.length > 0);
  assert.equal(out.map((record) => record.value?.toString()), ["Ada@London"]);
});

test("records the avro serde cannot read go to the dead-letter topic with topic, partition, offset and reason", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  await client.register("js-bad-in-value", avro(SENTENCE));
  await client.register("js-bad-out-value", avro(WORD_COUNT));
  const serializer = new AvroSerializer(client, SerdeType.VALUE, { useLatestVersion: true });
  const good = await serializer.serialize("js-bad-in", { text: "fine" });
  const unknownId = Buffer.from(good);
  unknownId.writeInt32BE(987_654, 1);
  const misfit = Buffer.concat([good.subarray(0, 5), Buffer.from([0x09])]); // a string length past the end
  const cutShort = Buffer.from([0, 0, 1]); // magic byte 0, but the schema id cut short
  const values = [Buffer.from("plain text"), unknownId, misfit, cutShort, await serializer.serialize("js-bad-in", { text: "also fine" })];
  await harness.producer.send({ topic: "js-bad-in", messages: values.map((value, i) => ({ key: `k${i}`, value })) });

  const runtime = harness.runtime([registryWordCount("js-bad", { "schema.registry.url": registryUrl, "processing.error.policy": "dead_letter" })]);
  await runtime.start();
  const reader = new AvroDeserializer(new SchemaRegistryClient({ baseURLs: [registryUrl] }), SerdeType.VALUE, {});
  await countsOf(harness, "js-bad-out", reader, { also: 1, fine: 1 });
  const headers = await headersOf(harness, "js-bad-dlq", 4);
  assert.equal(headers.map((named) => [named["sluice.dlq.phase"], named["sluice.dlq.topic"], named["sluice.dlq.partition"], named["sluice.dlq.offset"]]), [
    ["deserialization", "js-bad-in", "0", "0"],
    ["deserialization", "js-bad-in", "0", "1"],
    ["deserialization", "js-bad-in", "0", "2"],
    ["deserialization", "js-bad-in", "0", "3"],
  ]);
  const errors = headers.map((named) => named["sluice.dlq.error"]);
  // "plain text" starts with 'p', byte 112: a record written without the registry.
  assert.is(errors[0], "cannot deserialize the record of js-bad-in partition 0 at offset 0: not Confluent-framed (magic byte 112, expected 0)");
  assert.match(errors[1], /offset 1: schema id 987654: cannot be read from the registry/);
  assert.match(errors[2], /offset 2: .*(truncated|invalid)/i);
  assert.is(errors[3], "cannot deserialize the record of js-bad-in partition 0 at offset 3: not Confluent-framed (3 bytes, shorter than the 5-byte frame of magic byte 0)");
  await eventually(() => runtime.application("js-bad")?.state === "RUNNING", { what: "still RUNNING" });
});

test("with schema.registry.url left empty, an application reads with the registry built into Sluice", async () => {
  const provider: TopologyProvider = {
    name: "BuiltInRegistryReader",
    version: "1.0.0",
    config: { "application.id": "builtin-reader" },
    topology(builder: StreamsBuilder) {
      builder.stream<string, { text: string }>("builtin-in", { keySerde: "string", valueSerde: "avro" }).mapValues((sentence) => sentence.text.toUpperCase()).to("builtin-out", { keySerde: "string", valueSerde: "string" });
    },
  };
  const sluice = await startSluice({ services: { [TOPOLOGY_PROVIDER_CONTRACT]: [provider] } });
  try {
    const client = new SchemaRegistryClient({ baseURLs: [`${sluice.url}/schema-registry`] });
    await client.register("builtin-in-value", avro(SENTENCE));
    const value = await new AvroSerializer(client, SerdeType.VALUE, { useLatestVersion: true }).serialize("builtin-in", { text: "hello" });
    const [bootstrap] = sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
    const kafka = new Kafka({ clientId: "builtin-test", brokers: [bootstrap], logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: "builtin-in", messages: [{ key: "k", value }] });
    await producer.disconnect();
    const out = await eventually(async () => {
      const { records } = await readToEnd(bootstrap, "builtin-out", [0], "read_uncommitted");
      return records.length > 0 && records;
    }, { what: "builtin-out", timeoutMs: 20_000 });
    assert.equal(out.map((record) => record.value), ["HELLO"]);
  } finally {
    await sluice.close();
  }
});

test.run();
