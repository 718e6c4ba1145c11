/**
 * Streams runtime figures on the embedded broker, run as Sluice runs it (its own worker thread, file store):
 * - records/s of a stateless topology (mapValues + filter → topic) next to a bare kafkajs consumer reading the
 *   same input and doing nothing (the ceiling), and their ratio;
 * - words/s of `wordcount` fed lines of 10 words, end to end;
 * - records/s of restoring wordcount's store from its changelog after a stop with cleanup, restart to RUNNING;
 * - RSS at start, after each tenth of the stateless run, and at the end.
 * Rates run from a run's start (connect, topic creation, group join) to its last record, so start-up counts; run it
 * with enough records that start-up (printed: time to the first record) is small beside the whole.
 * Prints, never asserts.
 * Usage: node dist/bench/runtime/runtime-bench.js [records=1000000] [lines=50000] [storage=file|memory] [rounds=3]
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Kafka, logLevel, type Message, type Producer } from "kafkajs";
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import { startBrokerInWorker } from "../../providers/broker";
import { WordCountProvider } from "../../providers/examples";
import { StreamsRuntime } from "../../providers/streams";
import { median, rate, seconds, startup, timeRuntime, type Timing } from "./runtime-timing";

const records = Number(process.argv[2] ?? 1_000_000);
const lines = Number(process.argv[3] ?? 50_000);
const storage = process.argv[4] === "memory" ? "memory" : "file";
const ROUNDS = Number(process.argv[5] ?? 3);
const PARTITIONS = 4;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** Input goes in per-partition requests of 1,000 (kafkajs groups a request's messages in quadratic time), several in flight. */
async function produce(producer: Producer, topic: string, count: number, value: (i: number) => string): Promise<void> {
  const perRequest = 1_000;
  const inFlight: Promise<unknown>[] = [];
  for (let start = 0; start < count; start += perRequest) {
    const partition = (start / perRequest) % PARTITIONS;
    const messages: Message[] = [];
    for (let i = start; i < Math.min(start + perRequest, count); i++) messages.push({ key: `k${i % 1000}`, value: value(i), partition });
    inFlight.push(producer.send({ topic, messages }));
    if (inFlight.length >= 8) await Promise.all(inFlight.splice(0));
  }
  await Promise.all(inFlight);
}

async function bareConsumer(kafka: Kafka, topic: string, count: number): Promise<Timing> {
  const started = Date.now();
  const consumer = kafka.consumer({ groupId: `bare-${Date.now()}` });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  let seen = 0;
  let first = 0;
  await new Promise<void>((resolve) => {
    void consumer.run({
      eachBatch: async ({ batch }) => {
        if (first === 0) first = Date.now();
        seen += batch.messages.length;
        if (seen >= count) resolve();
      },
    });
  });
  const done = Date.now();
  await consumer.disconnect();
  return { firstSeconds: seconds(started, first), totalSeconds: seconds(started, done) };
}

/** Stops the application with cleanup, restarts it, and times it from the restart to RUNNING (its stores restored). */
async function timeRestore(runtime: StreamsRuntime, id: string): Promise<{ records: number; seconds: number }> {
  const application = runtime.application(id)!;
  await application.stop({ cleanup: true });
  const started = Date.now();
  await application.restart();
  while (application.state !== "RUNNING") await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (Date.now() - started) / 1000;
  const records = (await application.storesStatus()).reduce((sum, status) => sum + status.restoredRecords, 0);
  return { records, seconds };
}

async function main(): Promise<void> {
  const rssStart = process.memoryUsage().rss;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-broker-"));
  const broker = await startBrokerInWorker({ port: 0, storage, dataDir, initialRebalanceDelayMs: 0 });
  const bootstrap = [`${broker.host}:${broker.port}`];
  const kafka = new Kafka({ clientId: "bench", brokers: bootstrap, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "bench-in", numPartitions: PARTITIONS }, { topic: "words", numPartitions: PARTITIONS }] });
  await admin.disconnect();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-"));
  const producer = kafka.producer();
  await producer.connect();

  await produce(producer, "bench-in", records, (i) => `record number ${i} with some payload text`);
  // This machine's speed drifts from minute to minute: the ceiling and the topology run in turns, and each round's
  // ratio compares two runs made side by side.
  const rounds: { ceiling: Timing; stateless: Timing }[] = [];
  const rssSteps: number[] = [];
  const heapSteps: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const ceiling = await bareConsumer(kafka, "bench-in", records);
    const stateless = new StreamsRuntime({ bootstrapServers: bootstrap, streamsConfig: { "state.dir": stateDir } });
    const applicationId = `bench-stateless-${round}`;
    stateless.addProvider({
      name: "stateless",
      version: "1",
      config: { "application.id": applicationId },
      topology: (builder: StreamsBuilder) => {
        builder.stream<string, string>("bench-in").mapValues((value) => value.toUpperCase()).filter((_, value) => value.length > 3).to(`bench-out-${round}`);
      },
    });
    const sampleRss = () => {
      if (round > 1) return;
      const { rss, heapUsed } = process.memoryUsage();
      rssSteps.push(rss);
      heapSteps.push(heapUsed);
    };
    rounds.push({ ceiling, stateless: await timeRuntime(stateless, applicationId, records, sampleRss) });
    await stateless.close();
  }

  const vocabulary = Array.from({ length: 5_000 }, (_, i) => `word${i}`);
  await produce(producer, "words", lines, (i) => Array.from({ length: 10 }, (_, j) => vocabulary[(i * 10 + j * 7919) % vocabulary.length]).join(" "));
  await producer.disconnect();
  const wordcount = new StreamsRuntime({ bootstrapServers: bootstrap, streamsConfig: { "state.dir": stateDir } });
  wordcount.addProvider(new WordCountProvider());
  const wordTiming = await timeRuntime(wordcount, "wordcount", lines + lines * 10);
  const restore = await timeRestore(wordcount, "wordcount");
  await wordcount.close();
  const rssEnd = process.memoryUsage().rss;

  await broker.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`broker: worker thread, ${storage} store, ${PARTITIONS} partitions per input topic`);
  const ratios: number[] = [];
  for (const [index, round] of rounds.entries()) {
    const ceilingRate = rate(records, round.ceiling);
    const statelessRate = rate(records, round.stateless);
    ratios.push(statelessRate / ceilingRate);
    console.log(`round ${index + 1}: bare kafkajs consumer ${Math.round(ceilingRate)} records/s (${startup(round.ceiling)}), stateless topology ${Math.round(statelessRate)} records/s (${startup(round.stateless)}): ${((statelessRate / ceilingRate) * 100).toFixed(1)} %`);
  }
  console.log(`stateless topology / bare consumer: median ${(median(ratios) * 100).toFixed(1)} % over ${ratios.length} rounds of ${records} records`);
  const words = lines * 10;
  console.log(`wordcount:             ${Math.round(rate(words, wordTiming))} words/s end to end (${lines} lines of 10 words; ${startup(wordTiming)})`);
  console.log(`restore:               ${Math.round(restore.records / restore.seconds)} records/s (${restore.records} changelog records, ${restore.seconds.toFixed(2)} s from restart to RUNNING)`);
  console.log(`RSS: start ${mib(rssStart)}; first stateless run by tenths ${rssSteps.map(mib).join(", ")}; end ${mib(rssEnd)}`);
  console.log(`main-thread JS heap used by tenths (the broker worker counts in RSS only): ${heapSteps.map(mib).join(", ")}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
