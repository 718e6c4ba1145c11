/**
 * What security and compression cost the streams runtime: records/s of the stateless topology (mapValues + filter →
 * topic) reading from and writing to an embedded broker over SASL_SSL (TLS, SCRAM-SHA-512) ÷ over PLAINTEXT, and with
 * each codec ÷ none (its input written in that codec, its output written with streams.compression.type set to it).
 * Both brokers run in worker threads with file stores, as Sluice runs its broker. The machine's speed drifts, so the
 * variants run in turns within each round (in reverse order every other round) and each ratio is the median of the
 * rounds' ratios. Rates run from a run's start (connect, authenticate, join) to its last record.
 * Prints, never asserts.
 * Usage: node dist/bench/security/security-bench.js [records=1000000] [rounds=5]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type KafkaConfig } from "kafkajs";
import type { ConfigValue } from "../../kernel/contracts/streams/topology-provider";
import { startBrokerInWorker, type RunningBroker } from "../../providers/broker";
import { COMPRESSION_TYPES, RecordProducer, type BrokerSecurity, type CompressionType } from "../../providers/kafka-client";
import { StreamsRuntime } from "../../providers/streams";
import { createPki } from "../../test/helpers/certificates";
import { median, rate, startup, timeRuntime, type Timing } from "../runtime/runtime-timing";
import { statelessProvider } from "../runtime/stateless-topology";

const records = Number(process.argv[2] ?? 1_000_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const PARTITIONS = 4;
const USER = { name: "bench", password: "bench-password" };

interface Variant {
  name: string;
  bootstrap: string;
  input: string;
  codec: CompressionType;
  /** The streams.* security settings of the application. */
  settings: Record<string, ConfigValue>;
}

async function createTopics(bootstrap: string, config: Partial<KafkaConfig>, topics: string[]): Promise<void> {
  const admin = new Kafka({ clientId: "security-bench", brokers: [bootstrap], logLevel: logLevel.NOTHING, ...config }).admin();
  await admin.connect();
  await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: PARTITIONS })) });
  await admin.disconnect();
}

/** `records` records spread over the partitions, written by Sluice's producer in `codec`. */
async function fill(bootstrap: string, security: BrokerSecurity, topic: string, codec: CompressionType): Promise<void> {
  const producer = new RecordProducer({ bootstrapServers: [bootstrap], clientId: "security-bench", compression: codec, ...security });
  await producer.connect();
  const perPartition = 1_000;
  for (let start = 0; start < records; start += perPartition * PARTITIONS) {
    await producer.send(
      Array.from({ length: PARTITIONS }, (_, partition) => ({
        topic,
        partition,
        records: Array.from({ length: Math.max(0, Math.min(perPartition, records - start - partition * perPartition)) }, (_, i) => ({
          key: Buffer.from(`k${(start + partition * perPartition + i) % 1000}`),
          value: Buffer.from(`record number ${start + partition * perPartition + i} with some payload text`),
          timestamp: Date.now(),
        })),
      })),
    );
  }
  await producer.close();
}

async function run(variant: Variant, round: number, stateDir: string): Promise<Timing> {
  const runtime = new StreamsRuntime({ bootstrapServers: [variant.bootstrap], streamsConfig: { "state.dir": stateDir, "compression.type": variant.codec, ...variant.settings } });
  const applicationId = `bench-${variant.name.toLowerCase().replace(/_/g, "-")}-${round}`;
  runtime.addProvider(statelessProvider(applicationId, variant.input, `${applicationId}-out`));
  try {
    return await timeRuntime(runtime, applicationId, records);
  } finally {
    await runtime.close();
  }
}

async function main(): Promise<void> {
  const pki = createPki();
  const dirs = [0, 1, 2].map(() => fs.mkdtempSync(path.join(os.tmpdir(), "sluice-security-bench-")));
  const brokers: RunningBroker[] = [];
  try {
    const certificate = pki.issue("broker", "localhost", { server: true });
    const plain = await startBrokerInWorker({ port: 0, dataDir: dirs[0], initialRebalanceDelayMs: 0 });
    brokers.push(plain);
    const secured = await startBrokerInWorker({
      port: 0,
      dataDir: dirs[1],
      initialRebalanceDelayMs: 0,
      tls: { cert: fs.readFileSync(certificate.cert, "utf8"), key: fs.readFileSync(certificate.key, "utf8") },
      sasl: { mechanisms: ["SCRAM-SHA-512"], users: [USER], maxReauthMs: 0 },
    });
    brokers.push(secured);
    const plainBootstrap = `${plain.host}:${plain.port}`;
    const securedBootstrap = `${secured.host}:${secured.port}`;
    const ca = fs.readFileSync(pki.ca);
    const clientSecurity: BrokerSecurity = { tls: { ca }, sasl: { mechanism: "SCRAM-SHA-512", username: USER.name, password: USER.password } };

    const codecs = COMPRESSION_TYPES.filter((codec) => codec !== "none");
    await createTopics(plainBootstrap, {}, COMPRESSION_TYPES.map((codec) => `in-${codec}`));
    await createTopics(securedBootstrap, { ssl: { ca }, sasl: { mechanism: "scram-sha-512", username: USER.name, password: USER.password } }, ["in-none"]);
    for (const codec of COMPRESSION_TYPES) await fill(plainBootstrap, {}, `in-${codec}`, codec);
    await fill(securedBootstrap, clientSecurity, "in-none", "none");

    const variants: Variant[] = [
      { name: "PLAINTEXT", bootstrap: plainBootstrap, input: "in-none", codec: "none", settings: {} },
      {
        name: "SASL_SSL",
        bootstrap: securedBootstrap,
        input: "in-none",
        codec: "none",
        settings: { "security.protocol": "SASL_SSL", "ssl.ca.location": pki.ca, "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": USER.name, "sasl.password": USER.password },
      },
      ...codecs.map((codec): Variant => ({ name: codec, bootstrap: plainBootstrap, input: `in-${codec}`, codec, settings: {} })),
    ];
    const ratios = new Map<string, number[]>(variants.slice(1).map((variant) => [variant.name, []]));
    console.log(`${records} records of ~40 bytes per run, ${PARTITIONS} partitions, brokers in worker threads with file stores; SASL_SSL is TLS with SCRAM-SHA-512`);
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? variants : [...variants].reverse();
      const timings = new Map<string, Timing>();
      for (const variant of order) timings.set(variant.name, await run(variant, round, dirs[2]));
      const baseline = rate(records, timings.get("PLAINTEXT")!);
      const figures = variants.map((variant) => {
        const timing = timings.get(variant.name)!;
        if (variant.name !== "PLAINTEXT") ratios.get(variant.name)!.push(rate(records, timing) / baseline);
        return `${variant.name} ${Math.round(rate(records, timing))}/s (${startup(timing)})`;
      });
      console.log(`round ${round}: ${figures.join(", ")}`);
    }
    const ratio = (name: string) => `${(median(ratios.get(name)!) * 100).toFixed(1)} %`;
    console.log(`stateless topology, SASL_SSL / PLAINTEXT: median ${ratio("SASL_SSL")} over ${ROUNDS} rounds`);
    for (const codec of codecs) console.log(`stateless topology, ${codec} / none: median ${ratio(codec)} over ${ROUNDS} rounds`);
  } finally {
    for (const broker of brokers) await broker.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    pki.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
