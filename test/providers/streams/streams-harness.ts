/** Shared set-up of the runtime's end-to-end tests: an embedded broker, kafkajs clients, temp state dirs. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Kafka, Partitioners, logLevel, type Consumer, type Producer } from "kafkajs";
import { startBroker, type RunningBroker } from "../../../providers/broker";
import type { ConfigValue, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { StreamsRuntime } from "../../../providers/streams";

export interface TopicRecord {
  key: string | null;
  value: Buffer | null;
  partition: number;
}

export interface Harness {
  broker: RunningBroker;
  bootstrap: string[];
  kafka: Kafka;
  producer: Producer;
  stateDir(): string;
  runtime(providers: TopologyProvider[], options?: { server?: string; config?: Record<string, ConfigValue>; stateDir?: string }): StreamsRuntime;
  /** Reads every record of `topic` from the beginning until `until` says it has enough. */
  readTopic(topic: string, until: (records: TopicRecord[]) => boolean): Promise<TopicRecord[]>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const broker = await startBroker({ port: 0, storage: "memory", initialRebalanceDelayMs: 0 });
  const bootstrap = [`${broker.host}:${broker.port}`];
  const kafka = new Kafka({ clientId: "test", brokers: bootstrap, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const dirs: string[] = [];
  const runtimes: StreamsRuntime[] = [];
  const consumers: Consumer[] = [];
  const stateDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-runtime-"));
    dirs.push(dir);
    return dir;
  };
  return {
    broker,
    bootstrap,
    kafka,
    producer,
    stateDir,
    runtime(providers, options = {}) {
      const runtime = new StreamsRuntime({
        bootstrapServers: bootstrap,
        streamsConfig: { "state.dir": options.stateDir ?? stateDir(), "commit.interval.ms": 50, "session.timeout.ms": 6000, "heartbeat.interval.ms": 200, ...options.config },
        applicationServer: options.server,
      });
      for (const provider of providers) runtime.addProvider(provider);
      runtimes.push(runtime);
      return runtime;
    },
    async readTopic(topic, until) {
      const consumer = kafka.consumer({ groupId: `reader-${topic}-${Math.random()}`, maxWaitTimeInMs: 100 });
      consumers.push(consumer);
      const records: TopicRecord[] = [];
      let done!: () => void;
      const finished = new Promise<void>((resolve) => (done = resolve));
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message, partition }) => {
          records.push({ key: message.key?.toString() ?? null, value: message.value, partition });
          if (until(records)) done();
        },
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([finished, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`reading ${topic} timed out with ${records.length} records`)), 15_000)))]);
      clearTimeout(timer);
      await consumer.disconnect();
      return records;
    },
    async close() {
      for (const runtime of runtimes) await runtime.close(5_000).catch(() => undefined);
      for (const consumer of consumers) await consumer.disconnect().catch(() => undefined);
      await producer.disconnect();
      await broker.close();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
