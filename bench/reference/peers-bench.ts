/**
 * The performance peers of #31, in one run: Apache Kafka's broker (one KRaft node from test/helpers/kafka-cluster, with
 * Kafka's own heap and JVM settings) against the embedded broker (a worker thread of this process, file storage), and
 * Kafka Streams against Sluice, on this machine at the same time, in turns, over several rounds; the summary gives
 * medians of the per-round ratios (compare within one run: the machine's speed drifts from minute to minute).
 *
 * 1. kcat 1 KiB produce and consume, MB/s, each broker with its default durability (no sync: the OS writes back),
 *    then both with an fsync per batch: Kafka's log.flush.interval.messages=1 (set as its dynamic cluster default),
 *    the embedded broker's broker.flush.messages=1. Each topic is checked to have the setting before it is measured.
 * 2. The stateless topology (mapValues + filter) and wordcount (its record cache 10 MiB), first on the embedded broker,
 *    then on Apache Kafka, each with 1 and 2 stream threads; Sluice and Kafka Streams get the same commit interval.
 *    Records/s of input from the first input record processed to the last output record read back (see
 *    streams-peers), inputs (4 partitions) produced beforehand; what an application had processed when it was first
 *    seen at work is left out of its rate (each round's line gives that share).
 *
 * Prints, never asserts. Usage:
 *   node dist/bench/reference/peers-bench.js [--rounds=3] [--mb=64] [--records=50000] [--lines=5000] [--commit-ms=100] [--brokers=1] [--streams=1]
 * --brokers=0 or --streams=0 leaves that part out. Needs reference/setup (the jars) and kcat. The defaults keep a run
 * near 15 minutes on the 2 shared cores, most of it the 48 streams runs' start-ups (a JVM for each Kafka Streams run);
 * on such small inputs a cold JVM weighs more than it would over a long run: give more records and lines for that.
 * The commit interval is Sluice's default (100 ms; Kafka Streams' is 30 s, which would hold wordcount's output back).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { eventually } from "../../test/helpers/eventually";
import { startKafkaCluster, type KafkaCluster } from "../../test/helpers/kafka-cluster";
import { startBrokerInWorker, type RunningBroker } from "../../providers/broker";
import { numberArgument } from "../bench-arguments";
import { produceInput, statelessValue, wordCounts, wordLine } from "../runtime/bench-input";
import { median } from "../runtime/runtime-timing";
import { adminOf, createReadyTopics, kcatRounds, type KcatRound, type PeerBroker } from "./broker-peers";
import { KAFKA_JVM_OPTIONS, runKafkaStreams, runSluice, STREAMS_HEAP, type StreamsRun } from "./streams-peers";

const rounds = numberArgument("rounds", 3);
const megabytes = numberArgument("mb", 64);
const records = numberArgument("records", 50_000);
const lines = numberArgument("lines", 5_000);
const commitMs = numberArgument("commit-ms", 100);
const PARTITIONS = 4;
const CACHE_BYTES = 10 * 1024 * 1024;
const STATELESS_INPUT = "peers-stateless-in";
const WORDS_INPUT = "peers-words-in";
/** Kafka's default for log.flush.interval.messages, Long.MAX_VALUE: never, the OS writes back. */
const NEVER = "9223372036854775807";
const TOPIC = 2;
const BROKER = 4;

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Throws unless DescribeConfigs reports `value` for `name` of the resource (retried while a dynamic change spreads). */
async function expectConfig(bootstrap: string, resource: { type: number; name: string }, name: string, value: string): Promise<void> {
  const admin = adminOf(bootstrap);
  await admin.connect();
  try {
    await eventually(
      async () => {
        const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ ...resource, configNames: [name] }] });
        const actual = resources[0].configEntries.find((entry) => entry.configName === name)?.configValue;
        if (actual !== value) throw new Error(`${name} of ${resource.name} is ${actual}, not ${value}`);
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: `${name}=${value} on ${resource.name}` },
    );
  } finally {
    await admin.disconnect();
  }
}

/** The brokers with the flush interval each topic must have: Kafka's topic config, the embedded broker's own (it has no topic-level one). */
function peerBrokers(embedded: string, kafka: string, flushInterval: string): [PeerBroker, PeerBroker] {
  return [
    { name: "embedded broker", bootstrap: embedded, checkTopic: () => expectConfig(embedded, { type: BROKER, name: "0" }, "log.flush.interval.messages", flushInterval) },
    { name: "Apache Kafka", bootstrap: kafka, checkTopic: (topic) => expectConfig(kafka, { type: TOPIC, name: topic }, "flush.messages", flushInterval) },
  ];
}

function reportKcat(results: KcatRound[], durability: string, suffix: string): void {
  for (const [index, round] of results.entries()) {
    for (const direction of ["produce", "consume"] as const) {
      const { embedded, kafka } = round[direction];
      say(`round ${index + 1}: kcat 1 KiB ${direction}, ${durability}: embedded broker ${embedded.toFixed(1)} MB/s, Apache Kafka ${kafka.toFixed(1)} MB/s: ${percent(embedded / kafka)}`);
    }
  }
  for (const direction of ["produce", "consume"] as const) {
    const figures = results.map((round) => round[direction]);
    say(`kcat 1 KiB ${direction}, ${durability}: medians embedded broker ${median(figures.map((f) => f.embedded)).toFixed(1)} MB/s, Apache Kafka ${median(figures.map((f) => f.kafka)).toFixed(1)} MB/s`);
    say(`embedded broker / Apache Kafka, kcat 1 KiB ${direction}${suffix}: median ${percent(median(figures.map((f) => f.embedded / f.kafka)))}`);
  }
}

async function brokerPart(embedded: RunningBroker, cluster: KafkaCluster, dataDir: string): Promise<void> {
  const embeddedBootstrap = `${embedded.host}:${embedded.port}`;
  say(`kcat 1 KiB values, ${megabytes} MB a run, one partition, ${rounds} rounds, the brokers in turns`);
  reportKcat(await kcatRounds(...peerBrokers(embeddedBootstrap, cluster.bootstrap(), NEVER), rounds, megabytes, "default"), "default durability (no sync)", "");

  const flushSetting = ["--entity-type", "brokers", "--entity-default", "--alter"];
  await cluster.tool("kafka-configs", [...flushSetting, "--add-config", "log.flush.interval.messages=1"]);
  const syncing = await startBrokerInWorker({ port: 0, dataDir: path.join(dataDir, "embedded-fsync"), flushMessages: 1 });
  try {
    const results = await kcatRounds(...peerBrokers(`${syncing.host}:${syncing.port}`, cluster.bootstrap(), "1"), rounds, megabytes, "fsync");
    reportKcat(results, "fsync per batch (Kafka log.flush.interval.messages=1, embedded broker.flush.messages=1)", ", fsync per batch");
  } finally {
    await syncing.close();
    await cluster.tool("kafka-configs", [...flushSetting, "--delete-config", "log.flush.interval.messages"]);
  }
}

interface Pair {
  topology: StreamsRun["topology"];
  broker: string;
  threads: number;
  sluice: number;
  kafkaStreams: number;
}

/** The inputs of both topologies on one broker, produced once before every run. */
async function produceInputs(bootstrap: string): Promise<void> {
  const kafka = new Kafka({ clientId: "peers-bench", brokers: bootstrap.split(","), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await createReadyTopics(admin, [STATELESS_INPUT, WORDS_INPUT], PARTITIONS);
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  await produceInput(producer, STATELESS_INPUT, records, PARTITIONS, statelessValue);
  await produceInput(producer, WORDS_INPUT, lines, PARTITIONS, wordLine);
  await producer.disconnect();
}

async function streamsPart(brokers: { name: string; short: string; bootstrap: string }[]): Promise<void> {
  say(`streams: ${records} records for the stateless topology, ${lines} lines of 10 words for wordcount, ${PARTITIONS} partitions; commit.interval.ms=${commitMs} and statestore.cache.max.bytes=${CACHE_BYTES} for both`);
  say(`Kafka Streams: a JVM (${STREAMS_HEAP}, ${KAFKA_JVM_OPTIONS}) with num.stream.threads; Sluice "2 threads": two members of one group in worker threads of one process (no num.stream.threads yet, #37)`);
  for (const broker of brokers) await produceInputs(broker.bootstrap);
  const counts = wordCounts(lines);
  /** What wordcount processes: each line, then each of its words again from the repartition topic. */
  const processedOfWordcount = lines + [...counts.values()].reduce((sum, count) => sum + count, 0);
  const pairs: Pair[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const topology of ["stateless", "wordcount"] as const) {
      for (const broker of brokers) {
        for (const threads of [1, 2]) {
          const admin = adminOf(broker.bootstrap);
          await admin.connect();
          const run = async (system: "sluice" | "kafka-streams") => {
            const applicationId = `peers-${system}-${topology}-${broker.short}-${threads}t-${round}`;
            const output = `${applicationId}-out`;
            await createReadyTopics(admin, [output], PARTITIONS);
            const streamsRun: StreamsRun = {
              bootstrap: broker.bootstrap,
              topology,
              applicationId,
              input: topology === "stateless" ? STATELESS_INPUT : WORDS_INPUT,
              output,
              threads,
              streamsConfig: { "commit.interval.ms": commitMs, "statestore.cache.max.bytes": CACHE_BYTES },
              expected: topology === "stateless" ? { records } : { counts },
            };
            const timing = await (system === "sluice" ? runSluice(streamsRun) : runKafkaStreams(streamsRun));
            // The records processed before the application was first seen at work are left out of its rate.
            const seen = 1 - Math.min(1, timing.processedAtFirst / (topology === "stateless" ? records : processedOfWordcount));
            return { rate: ((topology === "stateless" ? records : lines) * seen) / timing.seconds, unseen: 1 - seen };
          };
          // Which goes first alternates, so that neither always runs on a warmer or a busier machine.
          const sluiceFirst = round % 2 === 1;
          const first = await run(sluiceFirst ? "sluice" : "kafka-streams");
          const second = await run(sluiceFirst ? "kafka-streams" : "sluice");
          await admin.disconnect();
          const [sluice, kafkaStreams] = sluiceFirst ? [first, second] : [second, first];
          const pair = { topology, broker: broker.name, threads, sluice: sluice.rate, kafkaStreams: kafkaStreams.rate };
          pairs.push(pair);
          say(
            `round ${round}: ${describe(pair)}: Sluice ${Math.round(pair.sluice)} records/s, Kafka Streams ${Math.round(pair.kafkaStreams)} records/s: ${percent(pair.sluice / pair.kafkaStreams)} ` +
              `(first seen at work after ${percent(sluice.unseen)} and ${percent(kafkaStreams.unseen)} of the processing, left out)`,
          );
        }
      }
    }
  }
  for (const topology of ["stateless", "wordcount"] as const) {
    const ofTopology = pairs.filter((pair) => pair.topology === topology);
    for (const variant of ofTopology.slice(0, ofTopology.length / rounds)) {
      const same = ofTopology.filter((pair) => pair.broker === variant.broker && pair.threads === variant.threads);
      say(
        `Sluice / Kafka Streams, ${describe(variant)}: median ${percent(median(same.map((pair) => pair.sluice / pair.kafkaStreams)))} ` +
          `(medians: Sluice ${Math.round(median(same.map((pair) => pair.sluice)))} records/s, Kafka Streams ${Math.round(median(same.map((pair) => pair.kafkaStreams)))} records/s)`,
      );
    }
  }
  say("the two lines below: the median of every round's ratio of both brokers and both thread counts");
  for (const topology of ["stateless", "wordcount"] as const) {
    say(`Sluice / Kafka Streams, ${topology}: median ${percent(median(pairs.filter((pair) => pair.topology === topology).map((pair) => pair.sluice / pair.kafkaStreams)))}`);
  }
}

function describe({ topology, broker, threads }: Pick<Pair, "topology" | "broker" | "threads">): string {
  return `${topology} on ${broker === "Apache Kafka" ? "Apache Kafka" : "the embedded broker"}, ${threads} thread${threads > 1 ? "s" : ""}`;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "peers-bench-"));
  // Kafka's own settings for a broker: 1 GiB of heap, G1, its default network and I/O threads.
  const cluster = await startKafkaCluster({ nodes: 1, heapMb: 1024, jvmOptions: KAFKA_JVM_OPTIONS, serverProperties: { "num.network.threads": 3, "num.io.threads": 8 } });
  const embedded = await startBrokerInWorker({ port: 0, dataDir: path.join(dataDir, "embedded"), initialRebalanceDelayMs: 0 });
  try {
    say(`Apache Kafka ${cluster.version} (kafka_2.13, one KRaft node, -Xmx1g, ${KAFKA_JVM_OPTIONS}) and the embedded broker (worker thread, file storage), on ${os.cpus().length} cores`);
    if (numberArgument("brokers", 1) !== 0) await brokerPart(embedded, cluster, dataDir);
    if (numberArgument("streams", 1) !== 0) {
      await streamsPart([
        { name: "embedded broker", short: "embedded", bootstrap: `${embedded.host}:${embedded.port}` },
        { name: "Apache Kafka", short: "kafka", bootstrap: cluster.bootstrap() },
      ]);
    }
  } finally {
    await embedded.close();
    await cluster.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
