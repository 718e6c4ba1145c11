/**
 * One Apache Kafka 4.4 node (KRaft, broker and controller in one JVM) from the reference jars, on free ephemeral
 * ports, with its logs in a temporary directory: the real cluster the transactions tests check Sluice's client
 * against. Replication factor 1 for the internal topics (the transaction state log included), and timed-out
 * transactions looked for every 500 ms. Stopped by its pid.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PartitionFetcher } from "../../../providers/kafka-client";
import { eventually } from "../../helpers/eventually";
import { referenceJava } from "../../helpers/json-lines-program";

export interface SingleKafkaBroker {
  bootstrap: string;
  stop(): Promise<void>;
}

const JVM_FLAGS = ["-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"];

/** A port nothing listens on now (the OS's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function run(mainClass: string, args: string[]): ChildProcess {
  const java = referenceJava(mainClass, args);
  return spawn(java.command, [...JVM_FLAGS, ...java.args], { stdio: ["ignore", "pipe", "pipe"] });
}

function finished(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once("exit", resolve));
}

export async function startSingleKafkaBroker(): Promise<SingleKafkaBroker> {
  const dir = await mkdtemp(join(tmpdir(), "sluice-kafka44-"));
  const [port, controllerPort] = [await freePort(), await freePort()];
  const properties = join(dir, "server.properties");
  await writeFile(
    properties,
    [
      "process.roles=broker,controller",
      "node.id=1",
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
      "controller.listener.names=CONTROLLER",
      "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
      `log.dirs=${join(dir, "logs")}`,
      "offsets.topic.replication.factor=1",
      "transaction.state.log.replication.factor=1",
      "transaction.state.log.min.isr=1",
      "transaction.abort.timed.out.transaction.cleanup.interval.ms=500",
      "group.initial.rebalance.delay.ms=0",
      "",
    ].join("\n"),
  );
  const format = run("kafka.tools.StorageTool", ["format", "-t", randomBytes(16).toString("base64url"), "-c", properties]);
  if ((await finished(format)) !== 0) throw new Error("kafka-storage format failed");
  const broker = run("kafka.Kafka", [properties]);
  let output = "";
  broker.stderr!.setEncoding("utf8").on("data", (text: string) => (output = (output + text).slice(-20_000)));
  broker.stdout!.resume();
  const bootstrap = `127.0.0.1:${port}`;
  const stop = async () => {
    if (broker.exitCode === null && broker.signalCode === null) broker.kill("SIGKILL");
    await finished(broker);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await eventually(
      async () => {
        if (broker.exitCode !== null) throw new Error(`Kafka exited (${broker.exitCode}):\n${output}`);
        const fetcher = new PartitionFetcher({ bootstrapServers: [bootstrap], clientId: "kafka-ready" });
        try {
          await fetcher.metadata.refresh(["__kafka-ready"]);
          return true;
        } finally {
          fetcher.close();
        }
      },
      { timeoutMs: 90_000, intervalMs: 250, what: "Apache Kafka to answer Metadata" },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { bootstrap, stop };
}
