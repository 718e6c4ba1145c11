/**
 * Streams runtime figures on the embedded broker (prints, never asserts):
 * - records/s of a stateless topology (mapValues + filter → topic) next to a bare kafkajs consumer reading the
 *   same input and doing nothing (the ceiling), and their ratio;
 * - words/s of `wordcount` fed lines of 10 words, end to end;
 * - RSS at start and end.
 * Usage: node dist/bench/runtime/runtime-bench.js [records=500000] [lines=50000]
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Kafka, Partitioners, logLevel } from "kafkajs";
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import { startBroker } from "../../providers/broker";
import { WordCountProvider } from "../../providers/examples";
import { StreamsRuntime } from "../../providers/streams";

const records = Number(process.argv[2] ?? 500_000);
const lines = Number(process.argv[3] ?? 50_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function produce(kafka: Kafka, topic: string, count: number, value: (i: number) => string): Promise<void> {
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const chunk = 5_000;
  for (let start = 0; start < count; start += chunk) {
    const messages = Array.from({ length: Math.min(chunk, count - start) }, (_, i) => ({ key: `k${(start + i) % 1000}`, value: value(start + i) }));
    await producer.send({ topic, messages });
  }
  await producer.disconnect();
}

async function bareConsumer(kafka: Kafka, topic: string, count: number): Promise<number> {
  const consumer = kafka.consumer({ groupId: `bare-${Date.now()}` });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  let seen = 0;
  const started = Date.now();
  await new Promise<void>((resolve) => {
    void consumer.run({
      eachBatch: async ({ batch }) => {
        seen += batch.messages.length;
        if (seen >= count) resolve();
      },
    });
  });
  const seconds = (Date.now() - started) / 1000;
  await consumer.disconnect();
  return count / seconds;
}

function processedTotal(runtime: StreamsRuntime, id: string): number {
  const thread = runtime.application(id)!.metrics().find((group) => group.name === "stream-thread-metrics");
  return Number(thread?.metrics.find((metric) => metric.name === "process-total")?.value ?? 0);
}

async function timeRuntime(runtime: StreamsRuntime, id: string, expected: number): Promise<number> {
  const started = Date.now();
  await runtime.start();
  while (processedTotal(runtime, id) < expected) await new Promise((resolve) => setTimeout(resolve, 20));
  return (Date.now() - started) / 1000;
}

async function main(): Promise<void> {
  const rssStart = process.memoryUsage().rss;
  const broker = await startBroker({ port: 0, storage: "memory", initialRebalanceDelayMs: 0 });
  const bootstrap = [`${broker.host}:${broker.port}`];
  const kafka = new Kafka({ clientId: "bench", brokers: bootstrap, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "bench-in", numPartitions: 4 }, { topic: "words", numPartitions: 4 }] });
  await admin.disconnect();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-"));

  await produce(kafka, "bench-in", records, (i) => `record number ${i} with some payload text`);
  const ceiling = await bareConsumer(kafka, "bench-in", records);

  const stateless = new StreamsRuntime({ bootstrapServers: bootstrap, streamsConfig: { "state.dir": stateDir } });
  stateless.addProvider({
    name: "stateless",
    version: "1",
    config: { "application.id": "bench-stateless" },
    topology: (builder: StreamsBuilder) => {
      builder.stream<string, string>("bench-in").mapValues((value) => value.toUpperCase()).filter((_, value) => value.length > 3).to("bench-out");
    },
  });
  const statelessSeconds = await timeRuntime(stateless, "bench-stateless", records);
  await stateless.close();
  const statelessRate = records / statelessSeconds;

  const vocabulary = Array.from({ length: 5_000 }, (_, i) => `word${i}`);
  await produce(kafka, "words", lines, (i) => Array.from({ length: 10 }, (_, j) => vocabulary[(i * 10 + j * 7919) % vocabulary.length]).join(" "));
  const wordcount = new StreamsRuntime({ bootstrapServers: bootstrap, streamsConfig: { "state.dir": stateDir } });
  wordcount.addProvider(new WordCountProvider());
  const wordSeconds = await timeRuntime(wordcount, "wordcount", lines + lines * 10);
  await wordcount.close();

  await broker.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
  const rssEnd = process.memoryUsage().rss;
  console.log(`bare kafkajs consumer: ${Math.round(ceiling)} records/s (${records} records)`);
  console.log(`stateless topology:    ${Math.round(statelessRate)} records/s (${((statelessRate / ceiling) * 100).toFixed(1)} % of the bare consumer)`);
  console.log(`wordcount:             ${Math.round((lines * 10) / wordSeconds)} words/s end to end (${lines} lines of 10 words)`);
  console.log(`RSS: start ${mb(rssStart)}, end ${mb(rssEnd)}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
