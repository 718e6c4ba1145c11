/**
 * What the `avro` and `protobuf` serdes cost beside `json`: words/s of the same wordcount (sentences in, counts out as
 * `{word, count}` records; the count store and repartition topic as strings and longs in all) reading and writing
 * Avro, and Protobuf, through the schema registry built into Sluice, and reading and writing JSON. The broker runs in a worker
 * thread and the registry in a Sluice without applications, as a deployment would have them; the runtime under test
 * is a StreamsRuntime of its own. Input: `lines` sentences of 10 words, the Avro ones framed by Confluent's own
 * AvroSerializer, the Protobuf ones by its ProtobufSerializer. The three run in turns, each round once, the order
 * turned every round (this machine's speed drifts); the summary gives the medians and the ratios; an uncounted round
 * first warms them up. Rates run from a run's start to its last record, so start-up (printed)
 * counts, as in runtime-bench. Beside the rates, the process's CPU time per run (the broker's worker thread included,
 * which does the same work for both but for the record sizes): on a machine shared with other work, wall-clock rates
 * swing from run to run, CPU time much less. The goal (issue #38): Avro costs no more than 20 % over JSON.
 * Prints, never asserts.
 * Usage: node dist/bench/registry/avro-json-wordcount.js [lines=50000] [rounds=3]
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { create, createMutableRegistry } from "@bufbuild/protobuf";
import { AvroSerializer, ProtobufDeserializer, ProtobufSerializer, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import { Kafka, logLevel, type Producer } from "kafkajs";
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import { startBrokerInWorker } from "../../providers/broker";
import { StreamsRuntime } from "../../providers/streams";
import { startSluice } from "../../test/helpers/sluice";
import { wordLine } from "../runtime/bench-input";
import { median, rate, startup, timeRuntime, type Timing } from "../runtime/runtime-timing";

const lines = Number(process.argv[2] ?? 50_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const PARTITIONS = 4;
const SENTENCE = { type: "record", name: "Sentence", namespace: "bench", fields: [{ name: "text", type: "string" }] };
const WORD_COUNT = { type: "record", name: "WordCount", namespace: "bench", fields: [{ name: "word", type: "string" }, { name: "count", type: "long" }] };
const SENTENCE_PROTO = 'syntax = "proto3";\npackage bench;\n\nmessage Sentence {\n  string text = 1;\n}\n';
const WORD_COUNT_PROTO = 'syntax = "proto3";\npackage bench;\n\nmessage WordCount {\n  string word = 1;\n  int64 count = 2;\n}\n';
type Format = "avro" | "protobuf" | "json";
const FORMATS: Format[] = ["avro", "protobuf", "json"];
/** A run's timing and the CPU seconds the process spent in it. */
type Run = Timing & { cpuSeconds: number };

/** Sends the sentences in requests of 1,000 a partition, several in flight, as bench-input's produceInput does. */
async function produceSentences(producer: Producer, topic: string, encode: (text: string) => Promise<Buffer>): Promise<void> {
  const perRequest = 1_000;
  const inFlight: Promise<unknown>[] = [];
  for (let start = 0; start < lines; start += perRequest) {
    const partition = (start / perRequest) % PARTITIONS;
    const count = Math.min(perRequest, lines - start);
    const messages = await Promise.all(Array.from({ length: count }, async (_, i) => ({ key: `k${(start + i) % 1000}`, value: await encode(wordLine(start + i)), partition })));
    inFlight.push(producer.send({ topic, messages }));
    if (inFlight.length >= 8) await Promise.all(inFlight.splice(0));
  }
  await Promise.all(inFlight);
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-broker-"));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-"));
  const broker = await startBrokerInWorker({ port: 0, storage: "file", dataDir, initialRebalanceDelayMs: 0 });
  const bootstrap = [`${broker.host}:${broker.port}`];
  const sluice = await startSluice({ overrides: { "streams.bootstrap.servers": bootstrap[0], "schema.registry.enable": "true" } });
  const registryUrl = `${sluice.url}/schema-registry`;
  const registry = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const kafka = new Kafka({ clientId: "bench", brokers: bootstrap, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: FORMATS.map((format) => ({ topic: `bench-${format}-in`, numPartitions: PARTITIONS })) });
  await admin.disconnect();
  await registry.register("bench-avro-in-value", { schemaType: "AVRO", schema: JSON.stringify(SENTENCE) });
  const serializer = new AvroSerializer(registry, SerdeType.VALUE, { useLatestVersion: true });
  const producer = kafka.producer();
  await producer.connect();
  await produceSentences(producer, "bench-avro-in", (text) => serializer.serialize("bench-avro-in", { text }));
  // ProtobufSerializer's message class: the registry's serialized file, built by Confluent's own deserializer.
  await registry.register("bench-protobuf-in-value", { schemaType: "PROTOBUF", schema: SENTENCE_PROTO });
  const sentenceFile = await new ProtobufDeserializer(registry, SerdeType.VALUE, {}).toFileDesc(registry, await registry.getLatestSchemaMetadata("bench-protobuf-in-value", "serialized"));
  const protobufSerializer = new ProtobufSerializer(registry, SerdeType.VALUE, { useLatestVersion: true, registry: createMutableRegistry(sentenceFile) });
  await produceSentences(producer, "bench-protobuf-in", (text) => protobufSerializer.serialize("bench-protobuf-in", create(sentenceFile.messages[0], { text })));
  await produceSentences(producer, "bench-json-in", async (text) => Buffer.from(JSON.stringify({ text })));
  await producer.disconnect();

  const run = async (format: Format, round: number): Promise<Run> => {
    const applicationId = `bench-${format}-wordcount-${round}`;
    const output = `${applicationId}-out`;
    if (format === "avro") await registry.register(`${output}-value`, { schemaType: "AVRO", schema: JSON.stringify(WORD_COUNT) });
    if (format === "protobuf") await registry.register(`${output}-value`, { schemaType: "PROTOBUF", schema: WORD_COUNT_PROTO });
    const runtime = new StreamsRuntime({ bootstrapServers: bootstrap, streamsConfig: { "state.dir": stateDir } });
    runtime.addProvider({
      name: applicationId,
      version: "1",
      config: { "application.id": applicationId, "schema.registry.url": registryUrl },
      topology(builder: StreamsBuilder) {
        builder
          .stream<string, { text: string }>(`bench-${format}-in`, { keySerde: "string", valueSerde: format })
          .flatMapValues((sentence) => sentence.text.split(" "))
          .groupBy((_key, word) => word, { keySerde: "string", valueSerde: "string" })
          .count({ storeName: "counts", keySerde: "string", valueSerde: "long" })
          .toStream()
          .map((word, count) => ({ key: word, value: { word, count } }))
          .to(output, { keySerde: "string", valueSerde: format });
      },
    });
    // Source records and repartitioned words, as runtime-bench counts wordcount.
    const cpu = process.cpuUsage();
    const timing = await timeRuntime(runtime, applicationId, lines + lines * 10);
    const { user, system } = process.cpuUsage(cpu);
    await runtime.close();
    return { ...timing, cpuSeconds: (user + system) / 1e6 };
  };

  const rounds: Record<Format, Run>[] = [];
  // Round 0 warms both paths up (JIT, the registry's first answers) and is not counted: otherwise the first round's
  // first format pays for the process's start.
  for (let round = 0; round <= ROUNDS; round++) {
    const order = FORMATS.map((_, i) => FORMATS[(i + round) % FORMATS.length]);
    const timings = {} as Record<Format, Run>;
    for (const format of order) timings[format] = await run(format, round);
    if (round > 0) rounds.push(timings);
  }
  await sluice.close();
  await broker.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });

  const words = lines * 10;
  const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
  const perRound = (format: Format, round: Record<Format, Run>) => `${format} ${Math.round(rate(words, round[format]))} words/s (${startup(round[format])}, CPU ${round[format].cpuSeconds.toFixed(2)} s)`;
  const overJson = (format: Format, round: Record<Format, Run>) => `${format} time / json time ${percent(rate(words, round.json) / rate(words, round[format]))}, CPU ${percent(round[format].cpuSeconds / round.json.cpuSeconds)}`;
  for (const [index, round] of rounds.entries()) {
    console.log(`round ${index + 1}: ${FORMATS.map((format) => perRound(format, round)).join(", ")}; ${overJson("avro", round)}; ${overJson("protobuf", round)}`);
  }
  const wordsPerSecond = (format: Format) => Math.round(median(rounds.map((round) => rate(words, round[format]))));
  console.log(`medians of ${rounds.length} rounds, ${lines} lines of 10 words, ${PARTITIONS} partitions, broker in a worker thread (file store)`);
  console.log(FORMATS.map((format) => `${format} wordcount: ${wordsPerSecond(format)} words/s`).join("; "));
  const cpuPerWord = (format: Format) => (median(rounds.map((round) => round[format].cpuSeconds)) / words) * 1e6;
  console.log(`CPU per word: ${FORMATS.map((format) => `${format} ${cpuPerWord(format).toFixed(2)} µs`).join(", ")}`);
  for (const format of ["avro", "protobuf"] as const) {
    const overhead = median(rounds.map((round) => rate(words, round.json) / rate(words, round[format]) - 1));
    const cpuOverhead = median(rounds.map((round) => round[format].cpuSeconds / round.json.cpuSeconds - 1));
    console.log(`${format} costs ${percent(overhead)} over json in wall-clock time, ${percent(cpuOverhead)} in CPU time (medians of the rounds' ratios; goal: at most 20 %)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
