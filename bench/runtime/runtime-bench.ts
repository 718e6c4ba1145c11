/**
 * Streams runtime figures on the embedded broker, run as Sluice runs it (its own worker thread, file store):
 * - records/s of a stateless topology (mapValues + filter → topic) next to kcat (librdkafka) consuming the same
 *   input and doing nothing (the ceiling), and their ratio; beside them Sluice's own consumer decoding the same
 *   records' keys and values and doing nothing else (the floor under any topology in this process), and the same
 *   topology run by two members of one group in worker threads (see worker-members); for both topology variants,
 *   also the rate over a run's last four fifths, past start-up and rebalances;
 * - words/s of `wordcount` fed lines of 10 words, end to end, with the record cache on (10 MiB) and off;
 * - what exactly_once_v2 costs (its default commit.interval.ms, 100 ms): the stateless topology and wordcount (cache
 *   on) under it, each divided by the same run under at_least_once;
 * - records/s of a windowed count (one-second tumbling windows of the stateless input, keyed by 1,000 keys, event
 *   time the producer's clock) emitting every update, and the same with suppress(untilWindowCloses): final results only;
 * - records/s of restoring wordcount's store from its changelog after a stop with cleanup, restart to RUNNING;
 * - RSS at start, after each tenth of the first stateless and the first wordcount run, and at the end;
 * - the stateless topology with 1 and 2 stream threads (`num.stream.threads`) on a broker in another process, and the
 *   ratio (see stream-threads-bench).
 * Rates run from a run's start (connect, topic creation, group join) to its last record, so start-up counts; run it
 * with enough records that start-up (printed: time to the first record) is small beside the whole. The variants
 * run in turns, each round once; the summary lines give the medians over the rounds.
 * Prints, never asserts.
 * Usage: node dist/bench/runtime/runtime-bench.js [records=1000000] [lines=50000] [storage=file|memory] [rounds=3]
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Kafka, logLevel } from "kafkajs";
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import type { TopologyContext } from "../../kernel/contracts/streams/topology-provider";
import { startBrokerInWorker } from "../../providers/broker";
import { WordCountProvider } from "../../providers/examples";
import { StreamsRuntime } from "../../providers/streams";
import { produceInput, statelessValue, wordLine } from "./bench-input";
import { timeDecodingConsumer } from "./decoding-consumer";
import { median, metricValue, rate, seconds, startup, steadyRate, timeRuntime, type Timing } from "./runtime-timing";
import { STATELESS_INPUT, statelessRuntime } from "./stateless-topology";
import { windowedCountRuntime } from "./windowed-topology";
import { printStreamThreads, STEADY_STATE_RECORDS, timeStreamThreads } from "./stream-threads-bench";
import { timeWorkerMembers } from "./worker-members";

const records = Number(process.argv[2] ?? 1_000_000);
const lines = Number(process.argv[3] ?? 50_000);
const storage = process.argv[4] === "memory" ? "memory" : "file";
const ROUNDS = Number(process.argv[5] ?? 3);
const PARTITIONS = 4;
/** Members of the variant that runs the stateless topology in worker threads. */
const MEMBERS = 2;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** kcat consuming `count` records of `topic` from the beginning, printing one byte per record (counted here). */
async function kcatConsumer(bootstrap: string, topic: string, count: number): Promise<Timing> {
  const started = Date.now();
  let first = 0;
  let seen = 0;
  // -c rather than -e: kcat learns of the end only from an empty fetch, which waits out fetch.wait.max.ms.
  const child = spawn("kcat", ["-b", bootstrap, "-C", "-t", topic, "-o", "beginning", "-c", String(count), "-q", "-f", "\\n"], { stdio: ["ignore", "pipe", "inherit"] });
  child.stdout.on("data", (chunk: Buffer) => {
    if (first === 0) first = Date.now();
    seen += chunk.length;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0 || seen < count) throw new Error(`kcat exited with ${code} after ${seen} of ${count} records`);
  return { firstSeconds: seconds(started, first), totalSeconds: seconds(started, Date.now()) };
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
  await admin.createTopics({ topics: [{ topic: STATELESS_INPUT, numPartitions: PARTITIONS }, { topic: "words", numPartitions: PARTITIONS }] });
  await admin.disconnect();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-"));
  const producer = kafka.producer();
  await producer.connect();

  await produceInput(producer, STATELESS_INPUT, records, PARTITIONS, statelessValue);
  await produceInput(producer, "words", lines, PARTITIONS, wordLine);
  await producer.disconnect();
  // This machine's speed drifts from minute to minute: the variants run in turns, and each round's ratio compares
  // two runs made side by side.
  const rounds: { ceiling: Timing; decoding: Timing; stateless: Timing; statelessEos: Timing; members: Timing; cached: Timing; cachedEos: Timing; uncached: Timing; windowed: Timing; suppressed: Timing }[] = [];
  const rss = { stateless: [] as number[], wordcount: [] as number[] };
  const heapSteps: number[] = [];
  /** Transactions each exactly_once_v2 stateless run committed, to show the runs were transactional. */
  const transactions: number[] = [];
  const sampler = (steps: number[], round: number, heap?: number[]) => () => {
    if (round > 1) return;
    const { rss, heapUsed } = process.memoryUsage();
    steps.push(rss);
    heap?.push(heapUsed);
  };
  const wordcountRun = async (round: number, cacheBytes: number, progress?: () => void, guarantee = "at_least_once"): Promise<Timing> => {
    const applicationId = `bench-wordcount-${cacheBytes > 0 ? "cached" : "uncached"}-${guarantee}-${round}`;
    const runtime = new StreamsRuntime({ bootstrapServers: bootstrap, streamsConfig: { "state.dir": stateDir, "statestore.cache.max.bytes": cacheBytes, "processing.guarantee": guarantee } });
    const provider = new WordCountProvider();
    runtime.addProvider({ ...provider, name: applicationId, config: { ...provider.config, "application.id": applicationId }, topology: (builder: StreamsBuilder, context: TopologyContext) => provider.topology(builder, context) });
    const timing = await timeRuntime(runtime, applicationId, lines + lines * 10, progress);
    await runtime.close();
    return timing;
  };
  const windowedRun = async (round: number, suppressed: boolean): Promise<Timing> => {
    const applicationId = `bench-windowed-${suppressed ? "suppressed" : "updates"}-${round}`;
    const runtime = windowedCountRuntime(bootstrap, stateDir, applicationId, STATELESS_INPUT, `${applicationId}-out`, suppressed);
    const timing = await timeRuntime(runtime, applicationId, records);
    await runtime.close();
    return timing;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    const ceiling = await kcatConsumer(bootstrap[0], STATELESS_INPUT, records);
    const decoding = await timeDecodingConsumer(bootstrap, STATELESS_INPUT, `bench-decoding-${round}`, records);
    const applicationId = `bench-stateless-${round}`;
    const stateless = statelessRuntime(bootstrap, stateDir, applicationId, `bench-out-${round}`);
    const statelessTiming = await timeRuntime(stateless, applicationId, records, sampler(rss.stateless, round, heapSteps));
    await stateless.close();
    const eosId = `bench-stateless-eos-${round}`;
    const statelessEosRuntime = statelessRuntime(bootstrap, stateDir, eosId, `bench-out-eos-${round}`, "exactly_once_v2");
    const statelessEos = await timeRuntime(statelessEosRuntime, eosId, records);
    transactions.push(metricValue(statelessEosRuntime, eosId, "producer-metrics", "txn-commit-total"));
    await statelessEosRuntime.close();
    const members = await timeWorkerMembers(bootstrap, stateDir, `bench-members-${round}`, `bench-members-out-${round}`, MEMBERS, records);
    const cached = await wordcountRun(round, 10_485_760, sampler(rss.wordcount, round));
    const cachedEos = await wordcountRun(round, 10_485_760, undefined, "exactly_once_v2");
    const uncached = await wordcountRun(round, 0);
    const windowed = await windowedRun(round, false);
    const suppressed = await windowedRun(round, true);
    rounds.push({ ceiling, decoding, stateless: statelessTiming, statelessEos, members, cached, cachedEos, uncached, windowed, suppressed });
  }

  const wordcount = new StreamsRuntime({ bootstrapServers: bootstrap, streamsConfig: { "state.dir": stateDir } });
  wordcount.addProvider(new WordCountProvider());
  await timeRuntime(wordcount, "wordcount", lines + lines * 10);
  const restore = await timeRestore(wordcount, "wordcount");
  await wordcount.close();
  const rssEnd = process.memoryUsage().rss;

  await broker.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
  const streamThreads = await timeStreamThreads(Math.max(records, STEADY_STATE_RECORDS), ROUNDS);
  console.log(`broker: worker thread, ${storage} store, ${PARTITIONS} partitions per input topic`);
  const words = lines * 10;
  const ratios: number[] = [];
  const decodingRatios: number[] = [];
  const membersRatios: number[] = [];
  const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
  for (const [index, round] of rounds.entries()) {
    const ceilingRate = rate(records, round.ceiling);
    const decodingRate = rate(records, round.decoding);
    const statelessRate = rate(records, round.stateless);
    ratios.push(statelessRate / ceilingRate);
    decodingRatios.push(decodingRate / ceilingRate);
    console.log(`round ${index + 1}: kcat consume ${Math.round(ceilingRate)} records/s (${startup(round.ceiling)}), Sluice's consumer decoding only ${Math.round(decodingRate)} records/s (${startup(round.decoding)}): ${percent(decodingRate / ceilingRate)}`);
    console.log(`round ${index + 1}: stateless topology ${Math.round(statelessRate)} records/s (${startup(round.stateless)}): ${percent(statelessRate / ceilingRate)} of kcat`);
    const membersRate = rate(records, round.members);
    membersRatios.push(membersRate / ceilingRate);
    console.log(
      `round ${index + 1}: stateless topology, ${MEMBERS} members in worker threads ${Math.round(membersRate)} records/s (${startup(round.members)}): ${percent(membersRate / ceilingRate)} of kcat; ` +
        `last four fifths: one member on the main thread ${Math.round(steadyRate(records, round.stateless))} records/s, ${MEMBERS} members ${Math.round(steadyRate(records, round.members))} records/s`,
    );
    console.log(`round ${index + 1}: windowed count ${Math.round(rate(records, round.windowed))} records/s (${startup(round.windowed)}), with suppress(untilWindowCloses) ${Math.round(rate(records, round.suppressed))} records/s (${startup(round.suppressed)})`);
    console.log(`round ${index + 1}: wordcount cache on ${Math.round(rate(words, round.cached))} words/s (${startup(round.cached)}), cache off ${Math.round(rate(words, round.uncached))} words/s (${startup(round.uncached)})`);
    console.log(
      `round ${index + 1}: exactly_once_v2: stateless topology ${Math.round(rate(records, round.statelessEos))} records/s (${startup(round.statelessEos)}), ` +
        `wordcount cache on ${Math.round(rate(words, round.cachedEos))} words/s (${startup(round.cachedEos)})`,
    );
  }
  console.log(`medians of ${rounds.length} rounds: ${records} records; ${lines} lines of 10 words`);
  console.log(`kcat consume: ${Math.round(median(rounds.map((round) => rate(records, round.ceiling))))} records/s`);
  console.log(`stateless topology: ${Math.round(median(rounds.map((round) => rate(records, round.stateless))))} records/s`);
  console.log(`Sluice's consumer decoding only: ${Math.round(median(rounds.map((round) => rate(records, round.decoding))))} records/s`);
  console.log(`Sluice's consumer decoding only / kcat consume: median ${percent(median(decodingRatios))}`);
  console.log(`stateless topology / kcat consume: median ${percent(median(ratios))}`);
  console.log(`stateless topology, ${MEMBERS} members in worker threads / kcat consume: median ${percent(median(membersRatios))}`);
  console.log(
    `stateless topology, last four fifths: one member ${Math.round(median(rounds.map((round) => steadyRate(records, round.stateless))))} records/s, ${MEMBERS} members ${Math.round(median(rounds.map((round) => steadyRate(records, round.members))))} records/s`,
  );
  console.log(`wordcount (cache on): ${Math.round(median(rounds.map((round) => rate(words, round.cached))))} words/s`);
  console.log(`wordcount (cache off): ${Math.round(median(rounds.map((round) => rate(words, round.uncached))))} words/s`);
  console.log(`exactly_once_v2 stateless runs committed ${transactions.join(", ")} transactions`);
  console.log(`stateless topology exactly_once_v2 / at_least_once: median ${percent(median(rounds.map((round) => rate(records, round.statelessEos) / rate(records, round.stateless))))}`);
  console.log(`wordcount (cache on) exactly_once_v2 / at_least_once: median ${percent(median(rounds.map((round) => rate(words, round.cachedEos) / rate(words, round.cached))))}`);
  console.log(`windowed count: ${Math.round(median(rounds.map((round) => rate(records, round.windowed))))} records/s; with suppress(untilWindowCloses): ${Math.round(median(rounds.map((round) => rate(records, round.suppressed))))} records/s`);
  console.log(`restore: ${Math.round(restore.records / restore.seconds)} records/s (${restore.records} changelog records, ${restore.seconds.toFixed(2)} s from restart to RUNNING)`);
  console.log(`RSS: start ${mib(rssStart)}; first stateless run by tenths ${rss.stateless.map(mib).join(", ")}; first wordcount run (cache on) by tenths ${rss.wordcount.map(mib).join(", ")}; end ${mib(rssEnd)}`);
  printStreamThreads(streamThreads);
  console.log(`main-thread JS heap used by tenths of the first stateless run (the broker worker counts in RSS only): ${heapSteps.map(mib).join(", ")}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
