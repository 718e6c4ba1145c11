/** Shared set-up for the broker's tests: a broker on an ephemeral port (in this process or its own), kafkajs clients, kcat runs. */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { eventually } from "../../helpers/eventually";
import { Kafka, logLevel, type KafkaConfig } from "kafkajs";
import { startBroker, type BrokerOptions, type RunningBroker } from "../../../providers/broker";

export type TestKafka = Pick<Kafka, "producer" | "consumer" | "admin">;

export interface TestBroker {
  broker: RunningBroker;
  bootstrap: string;
  /** A silent kafkajs client on this broker; every producer, consumer and admin it makes is disconnected by close(). */
  kafka(config?: Partial<KafkaConfig>): TestKafka;
  /** Disconnects the clients, then stops the broker. */
  close(): Promise<void>;
}

export function kafkaConfig(bootstrap: string, config: Partial<KafkaConfig> = {}): KafkaConfig {
  return { clientId: "broker-test", brokers: [bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 }, ...config };
}

export async function startTestBroker(options: BrokerOptions = {}): Promise<TestBroker> {
  const broker = await startBroker({ port: 0, storage: "memory", initialRebalanceDelayMs: 0, ...options });
  const bootstrap = `${broker.host}:${broker.port}`;
  const clients: { disconnect(): Promise<void> }[] = [];
  const track = <C extends { disconnect(): Promise<void> }>(client: C): C => {
    clients.push(client);
    return client;
  };
  return {
    broker,
    bootstrap,
    kafka: (config) => {
      const kafka = new Kafka(kafkaConfig(bootstrap, config));
      return {
        producer: (producerConfig) => track(kafka.producer(producerConfig)),
        consumer: (consumerConfig) => track(kafka.consumer(consumerConfig)),
        admin: (adminConfig) => track(kafka.admin(adminConfig)),
      };
    },
    close: async () => {
      await Promise.all(clients.map((client) => client.disconnect().catch(() => undefined)));
      await broker.close();
    },
  };
}

export interface KcatResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs kcat without blocking this process's event loop (the broker may live in it). */
export function runKcat(bootstrap: string, args: string[], input = "", timeoutMs = 20_000): Promise<KcatResult> {
  return new Promise((resolve) => {
    const child = execFile("kcat", ["-b", bootstrap, ...args], { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

export interface StandaloneBroker {
  child: ChildProcess;
  port: number;
  bootstrap: string;
}

/**
 * A file-storage broker in a process of its own (standalone-broker), on `port` (default: an ephemeral one), pushed
 * onto `children` so that the test stops it by its pid.
 */
export async function startStandaloneBroker(dataDir: string, children: ChildProcess[], port = 0): Promise<StandaloneBroker> {
  const child = spawn(process.execPath, [join(__dirname, "standalone-broker.js"), dataDir, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => (output += text));
  const listening = await eventually(() => output.includes("\n") && (JSON.parse(output.split("\n")[0]) as { port: number }).port, {
    what: "the standalone broker to listen",
  });
  return { child, port: listening, bootstrap: `127.0.0.1:${listening}` };
}

/** Resolves once `child` has exited. */
export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}
