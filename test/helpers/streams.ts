/**
 * Sluice with the example applications on an embedded in-memory broker, for tests of the runtime's REST
 * surface: HTTP on port 0, broker on an ephemeral port, state in a temp folder removed at close.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Message } from "kafkajs";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../kernel/contracts/kafka-bootstrap";
import { startBroker, type RunningBroker } from "../../providers/broker";
import { REPO_ROOT, startSluice, type RunningSluice } from "./sluice";

export const EXAMPLES_PACKAGE = path.join(REPO_ROOT, "dist", "providers", "examples");

export interface SluiceWithExamples extends RunningSluice {
  kafka: Kafka;
  brokers: string[];
  stateDir: string;
  /** Produces with a shared producer (acks=all). */
  produce(topic: string, messages: Message[]): Promise<void>;
}

/** `services`: components the program gives for a contract, beside those found through descriptors; `logSink`: the log lines. */
export async function startSluiceWithExamples(overrides: Record<string, string> = {}, services?: Record<string, unknown[]>, logSink?: (line: string) => void): Promise<SluiceWithExamples> {
  // A state dir the caller gives outlives the instance (a restart on it); one made here is removed at close.
  const given = overrides["streams.state.dir"];
  const stateDir = given ?? fs.mkdtempSync(path.join(os.tmpdir(), "sluice-state-"));
  const removeState = () => given === undefined && fs.rmSync(stateDir, { recursive: true, force: true });
  const sluice = await startSluice({
    services,
    logSink,
    overrides: {
      "plugins.packages": EXAMPLES_PACKAGE,
      "broker.port": "0",
      "broker.storage": "memory",
      "streams.state.dir": stateDir,
      ...overrides,
    },
  }).catch((error: unknown) => {
    removeState();
    throw error;
  });
  const brokers = overrides["streams.bootstrap.servers"]?.split(",") ?? sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
  const kafka = new Kafka({ clientId: "test-client", brokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  return {
    ...sluice,
    kafka,
    brokers,
    stateDir,
    produce: async (topic, messages) => void (await producer.send({ topic, messages, acks: -1 })),
    close: async () => {
      await producer.disconnect();
      await sluice.close();
      removeState();
    },
  };
}

/** A broker of its own (in memory, no rebalance delay) with `topics` of four partitions each, for tests of instances that share a group. */
export async function startBrokerWithTopics(topics: string[]): Promise<{ broker: RunningBroker; bootstrap: string }> {
  const broker = await startBroker({ port: 0, storage: "memory", initialRebalanceDelayMs: 0 });
  const bootstrap = `127.0.0.1:${broker.port}`;
  const admin = new Kafka({ clientId: "test-admin", brokers: [bootstrap], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: 4 })), waitForLeaders: true });
  await admin.disconnect();
  return { broker, bootstrap };
}
