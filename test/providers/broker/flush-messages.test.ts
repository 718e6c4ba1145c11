/**
 * `broker.flush.messages` (Kafka's log.flush.interval.messages): a `sluice broker` child with file storage syncs a
 * partition's segment file every that many records, and never by default. The fsync calls are read from strace
 * attached to the broker's process (every thread: the file writes run on libuv's pool).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { brokerPort, runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { stopProcess } from "../streams/wordcount-processes";

/** The fsync and fdatasync calls `pid` makes while `work` runs, each as the path of the file it synced. */
async function syncedFiles(pid: number, work: () => Promise<void>): Promise<string[]> {
  const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sluice-flush-trace-")), "strace.txt");
  const strace = spawn("strace", ["-f", "-y", "-e", "trace=fsync,fdatasync", "-o", trace, "-p", String(pid)], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  strace.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => strace.once("exit", () => resolve()));
  try {
    // strace says "Process N attached with M threads" once it traces all of them.
    await eventually(
      () => {
        if (strace.exitCode !== null) throw new Error(`strace exited: ${stderr}`);
        return stderr.includes(`Process ${pid} attached`);
      },
      { timeoutMs: 15_000, what: "strace to attach" },
    );
    await work();
  } finally {
    // SIGTERM makes strace detach, leaving the broker running.
    strace.kill("SIGTERM");
    await exited;
  }
  const calls = fs.readFileSync(trace, "utf8");
  fs.rmSync(path.dirname(trace), { recursive: true, force: true });
  return [...calls.matchAll(/f(?:data)?sync\(\d+<([^>]*)>\)\s+= 0/g)].map((match) => match[1]);
}

/** A file-storage broker child with `flags`; the test stops it by its pid. */
async function fileBroker(dataDir: string, flags: string[], children: SluiceProcess[]): Promise<{ pid: number; kafka: Kafka }> {
  const broker = runSluice(["broker", "--broker.port=0", `--broker.data.dir=${dataDir}`, ...flags]);
  children.push(broker);
  const port = await brokerPort(broker);
  return { pid: broker.child.pid!, kafka: new Kafka({ clientId: "flush-messages", brokers: [`127.0.0.1:${port}`], logLevel: logLevel.NOTHING }) };
}

/** Nine produce requests of one record each, one after the other. */
async function produceNine(kafka: Kafka, topic: string): Promise<void> {
  const producer = kafka.producer();
  await producer.connect();
  try {
    for (let i = 0; i < 9; i++) await producer.send({ topic, acks: -1, messages: [{ value: `record ${i}` }] });
  } finally {
    await producer.disconnect();
  }
}

test("broker.flush.messages=3 syncs the segment file after every third record, and the partition directory once; the default syncs nothing", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-flush-"));
  const children: SluiceProcess[] = [];
  try {
    const every3 = await fileBroker(path.join(dataDir, "every-3"), ["--broker.flush.messages=3"], children);
    const admin = every3.kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: "synced" }] });
    const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 4, name: "0", configNames: ["log.flush.interval.messages"] }] });
    assert.equal(resources[0].configEntries.map(({ configName, configValue }) => [configName, configValue]), [["log.flush.interval.messages", "3"]]);
    await admin.disconnect();
    const partitionDir = path.join(dataDir, "every-3", "synced-0");
    const synced = await syncedFiles(every3.pid, () => produceNine(every3.kafka, "synced"));
    const segment = path.join(partitionDir, "00000000000000000000.log");
    // The segment's first sync also syncs the directory entry of the file, which may be new.
    assert.equal(synced.filter((file) => file.startsWith(partitionDir)), [segment, partitionDir, segment, segment]);

    const never = await fileBroker(path.join(dataDir, "default"), [], children);
    const unsynced = await syncedFiles(never.pid, () => produceNine(never.kafka, "unsynced"));
    assert.equal(unsynced, [], "by default the OS writes the log back");
  } finally {
    for (const child of children) await stopProcess(child, "SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("broker.flush.messages must be -1 or at least 1", async () => {
  const broker = runSluice(["broker", "--broker.port=0", "--broker.storage=memory", "--broker.flush.messages=0"]);
  const { code } = await broker.exited;
  assert.not.equal(code, 0);
  assert.match(broker.stderr(), /broker\.flush\.messages must be -1 \(never\) or at least 1, got 0/);
});

test.run();
