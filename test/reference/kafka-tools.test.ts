/**
 * Apache Kafka's command-line tools against `sluice broker`: kafka-topics, kafka-console-producer,
 * kafka-console-consumer and kafka-consumer-groups (describe, reset-offsets, delete), run from their main classes
 * as the tools' scripts run them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../helpers/eventually";
import { brokerPort, runSluice, type SluiceProcess } from "../helpers/sluice-process";
import { JavaProcesses, KAFKA_TOOLS, REFERENCE_PACKAGE, SIGTERM_EXIT, stopJava, type JavaExit, type JavaProcess } from "../helpers/reference-java";

const CONSUMER = `${REFERENCE_PACKAGE}.clients.GroupConsumer`;
const PRODUCER = `${REFERENCE_PACKAGE}.clients.DefaultProducer`;

let broker: SluiceProcess;
let bootstrap: string;
const java = new JavaProcesses();

const test = suite("reference: Kafka's command-line tools against sluice broker");

test.before(async () => {
  broker = runSluice(["broker", "--broker.port=0", "--broker.storage=memory"]);
  bootstrap = `127.0.0.1:${await brokerPort(broker)}`;
});

test.after.each(() => java.stopAll());

test.after(async () => {
  if (broker.child.exitCode === null) broker.child.kill("SIGTERM");
  await broker.exited;
});

type ToolRun = JavaExit & { stdout: string; stderr: string };

function tool(name: keyof typeof KAFKA_TOOLS, args: string[], input?: string): Promise<ToolRun> {
  return java.run(KAFKA_TOOLS[name], ["--bootstrap-server", bootstrap, ...args], { input });
}

async function succeeds(name: keyof typeof KAFKA_TOOLS, args: string[], input?: string): Promise<string> {
  const run = await tool(name, args, input);
  assert.is(run.code, 0, `${name} ${args.join(" ")}:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** The rows of the tables kafka-consumer-groups prints: each a record from the header's column names. */
function tableRows(stdout: string): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  let header: string[] | undefined;
  for (const line of stdout.split("\n")) {
    const cells = line.trim().split(/\s+/).filter(Boolean);
    if (cells.length === 0) header = undefined;
    else if (header === undefined) header = cells;
    else rows.push(Object.fromEntries(header.map((name, i) => [name, cells[i]])));
  }
  return rows;
}

/** One row per partition: CURRENT-OFFSET, LOG-END-OFFSET and LAG of a group's --describe, or NEW-OFFSET of a reset. */
const byPartition = (rows: Record<string, string>[], column: string) => Object.fromEntries(rows.map((row) => [`${row.TOPIC}-${row.PARTITION}`, row[column]]));

test("kafka-topics creates, lists, describes, grows and deletes topics", async () => {
  assert.match(await succeeds("topics", ["--create", "--topic", "events", "--partitions", "3", "--config", "cleanup.policy=compact"]), /Created topic events\./);
  const again = await tool("topics", ["--create", "--topic", "events", "--partitions", "3"]);
  assert.is(again.code, 1);
  assert.match(again.stdout + again.stderr, /Error while executing topic command : topic "events" already exists/);
  await succeeds("topics", ["--create", "--if-not-exists", "--topic", "events", "--partitions", "3"]);
  await succeeds("topics", ["--create", "--topic", "audit", "--partitions", "1"]);
  assert.equal((await succeeds("topics", ["--list"])).trim().split("\n"), ["audit", "events"]);

  const describe = async () => (await succeeds("topics", ["--describe", "--topic", "events"])).trim().split("\n");
  const [summary, ...partitions] = await describe();
  // Each topic has its id (Metadata v10+), which kafka-topics prints as Kafka's brokers give it.
  assert.match(summary, /^Topic: events\tTopicId: [A-Za-z0-9_-]{22}\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: cleanup\.policy=compact,segment\.bytes=\d+$/);
  assert.equal(partitions.map((line) => line.trim().split("\t").slice(0, 5)), [0, 1, 2].map((partition) => ["Topic: events", `Partition: ${partition}`, "Leader: 0", "Replicas: 0", "Isr: 0"]));

  await succeeds("topics", ["--alter", "--topic", "events", "--partitions", "5"]);
  const [grown, ...five] = await describe();
  assert.match(grown, /PartitionCount: 5/);
  assert.is(five.length, 5);
  const shrink = await tool("topics", ["--alter", "--topic", "events", "--partitions", "2"]);
  assert.is(shrink.code, 1);
  assert.match(shrink.stdout + shrink.stderr, /has 5 partitions: it can grow to more, not to 2/);

  await succeeds("topics", ["--delete", "--topic", "audit"]);
  assert.equal((await succeeds("topics", ["--list"])).trim().split("\n"), ["events"]);
  const unknown = await tool("topics", ["--describe", "--topic", "audit"]);
  assert.is(unknown.code, 1);
  assert.match(unknown.stdout + unknown.stderr, /Topic 'audit' does not exist/);
});

const MIDNIGHT = Date.UTC(2026, 0, 1);

const KEYED = Array.from({ length: 40 }, (_, i) => `key-${i % 6}:value-${i}`);

test("kafka-console-producer writes keyed lines that kafka-console-consumer reads back in order per key, and the group it read in has no lag", async () => {
  await succeeds("topics", ["--create", "--topic", "console", "--partitions", "3"]);
  await succeeds("consoleProducer", ["--topic", "console", "--reader-property", "parse.key=true", "--reader-property", "key.separator=:"], `${KEYED.join("\n")}\n`);

  const consumed = await succeeds("consoleConsumer", [
    "--topic", "console", "--from-beginning", "--max-messages", String(KEYED.length), "--group", "console-readers",
    "--formatter-property", "print.key=true", "--formatter-property", "key.separator=:", "--formatter-property", "print.partition=true",
  ]);
  // The formatter puts its key.separator between every field: "Partition:1:key-0:value-0".
  const records = consumed.trim().split("\n").map((printed) => {
    const [, partition, line] = /^Partition:(\d+):(.*)$/.exec(printed) ?? [printed, "", printed];
    return { partition: Number(partition), line };
  });
  assert.equal(records.map(({ line }) => line).sort(), [...KEYED].sort());
  for (let key = 0; key < 6; key++) {
    const ofKey = records.filter(({ line }) => line.startsWith(`key-${key}:`));
    assert.equal(ofKey.map(({ line }) => line), KEYED.filter((line) => line.startsWith(`key-${key}:`)), "one key's records in the order produced");
    assert.is(new Set(ofKey.map(({ partition }) => partition)).size, 1, "one key, one partition");
  }

  const described = tableRows(await succeeds("consumerGroups", ["--describe", "--group", "console-readers"]));
  assert.equal(byPartition(described, "LAG"), { "console-0": "0", "console-1": "0", "console-2": "0" });
  assert.equal(byPartition(described, "CURRENT-OFFSET"), byPartition(described, "LOG-END-OFFSET"));
  const total = Object.values(byPartition(described, "LOG-END-OFFSET")).reduce((sum, end) => sum + Number(end), 0);
  assert.is(total, KEYED.length);
});

/** A GroupConsumer of `group` on `topic`, waited for until it has read `count` records and committed them. */
async function readingMember(group: string, topic: string, count: number, clientId: string): Promise<JavaProcess> {
  const member = java.start(CONSUMER, [bootstrap, group, topic, `client.id=${clientId}`]);
  await eventually(
    () => {
      const committed = member.lines().filter((line) => line.event === "committed").reduce((sum, line) => sum + (line.records as number), 0);
      if (member.child.exitCode !== null) throw new Error(member.stderr());
      return committed >= count;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: `${clientId} to read and commit ${count} records` },
  );
  return member;
}

test("kafka-consumer-groups lists and describes a live group, refuses to reset it, then resets the offsets of the stopped group to the earliest, to an offset, by a shift and to a time", async () => {
  await succeeds("topics", ["--create", "--topic", "ledger", "--partitions", "2"]);
  // entry-0, entry-2 … in partition 0, entry-1, entry-3 … in partition 1; entry-i stamped i seconds after midnight.
  const entries = Array.from({ length: 10 }, (_, i) => ({ value: `entry-${i}`, partition: i % 2, timestamp: MIDNIGHT + i * 1000 }));
  const produced = await java.run(PRODUCER, [bootstrap, "ledger"], { input: entries.map((entry) => JSON.stringify(entry)).join("\n") });
  assert.is(produced.code, 0, produced.stderr);
  const member = await readingMember("bookkeepers", "ledger", 10, "bookkeeper-1");

  assert.ok((await succeeds("consumerGroups", ["--list"])).trim().split("\n").includes("bookkeepers"));
  const listed = tableRows(await succeeds("consumerGroups", ["--list", "--state"])).find((row) => row.GROUP === "bookkeepers");
  assert.equal(listed, { GROUP: "bookkeepers", STATE: "Stable" });
  assert.equal(tableRows(await succeeds("consumerGroups", ["--list", "--state", "Empty"])).filter((row) => row.GROUP === "bookkeepers"), []);
  const live = tableRows(await succeeds("consumerGroups", ["--describe", "--group", "bookkeepers"]));
  assert.equal(byPartition(live, "CURRENT-OFFSET"), { "ledger-0": "5", "ledger-1": "5" });
  assert.equal(byPartition(live, "LAG"), { "ledger-0": "0", "ledger-1": "0" });
  assert.ok(live.every((row) => row["CLIENT-ID"] === "bookkeeper-1" && row.HOST === "/127.0.0.1" && row["CONSUMER-ID"].startsWith("bookkeeper-1-")), JSON.stringify(live));
  const [state] = tableRows(await succeeds("consumerGroups", ["--describe", "--group", "bookkeepers", "--state"]));
  assert.equal([state["ASSIGNMENT-STRATEGY"], state.STATE, state["#MEMBERS"]], ["range", "Stable", "1"]);
  const [memberRow] = tableRows(await succeeds("consumerGroups", ["--describe", "--group", "bookkeepers", "--members"]));
  assert.equal([memberRow["CLIENT-ID"], memberRow["#PARTITIONS"]], ["bookkeeper-1", "2"]);

  const refused = await tool("consumerGroups", ["--reset-offsets", "--group", "bookkeepers", "--topic", "ledger", "--to-earliest", "--execute"]);
  assert.match(refused.stdout + refused.stderr, /Assignments can only be reset if the group 'bookkeepers' is inactive, but the current state is Stable/);

  assert.is((await stopJava(member)).code, SIGTERM_EXIT, member.stderr());
  const [stopped] = tableRows(await succeeds("consumerGroups", ["--describe", "--group", "bookkeepers", "--state"]));
  assert.equal([stopped.STATE, stopped["#MEMBERS"]], ["Empty", "0"]);

  const reset = async (args: string[]) => byPartition(tableRows(await succeeds("consumerGroups", ["--reset-offsets", "--group", "bookkeepers", ...args])), "NEW-OFFSET");
  const current = async () => byPartition(tableRows(await succeeds("consumerGroups", ["--describe", "--group", "bookkeepers"])), "CURRENT-OFFSET");

  assert.equal(await reset(["--topic", "ledger", "--to-earliest", "--execute"]), { "ledger-0": "0", "ledger-1": "0" });
  assert.equal(await current(), { "ledger-0": "0", "ledger-1": "0" });
  assert.equal(await reset(["--topic", "ledger:1", "--to-offset", "3", "--execute"]), { "ledger-1": "3" });
  assert.equal(await current(), { "ledger-0": "0", "ledger-1": "3" });
  assert.equal(await reset(["--all-topics", "--shift-by", "2", "--execute"]), { "ledger-0": "2", "ledger-1": "5" });
  assert.equal(await current(), { "ledger-0": "2", "ledger-1": "5" });
  // A dry run shows the offsets it would set, and sets nothing.
  assert.equal(await reset(["--all-topics", "--to-latest", "--dry-run"]), { "ledger-0": "5", "ledger-1": "5" });
  assert.equal(await current(), { "ledger-0": "2", "ledger-1": "5" });
  // To a time: each partition's first entry stamped 4.5 s after midnight or later (entry-6 and entry-5).
  assert.equal(await reset(["--all-topics", "--to-datetime", "2026-01-01T00:00:04.500Z", "--execute"]), { "ledger-0": "3", "ledger-1": "2" });

  // A member of the group now starts where the reset put it.
  const resumed = await readingMember("bookkeepers", "ledger", 5, "bookkeeper-2");
  const read = resumed.lines().filter((line) => line.event === "record").map((line) => `${line.partition}:${line.value}`);
  assert.equal(read.sort(), ["0:entry-6", "0:entry-8", "1:entry-5", "1:entry-7", "1:entry-9"]);
  await stopJava(resumed);

  // The offsets of one partition deleted: the group has none for it, and keeps the other's.
  const deleted = tableRows(await succeeds("consumerGroups", ["--delete-offsets", "--group", "bookkeepers", "--topic", "ledger:1"]));
  assert.equal(deleted, [{ TOPIC: "ledger", PARTITION: "1", STATUS: "Successful" }]);
  assert.equal(await current(), { "ledger-0": "5" });

  assert.match(await succeeds("consumerGroups", ["--delete", "--group", "bookkeepers"]), /Deletion of requested consumer groups \('bookkeepers'\) was successful/);
  assert.not.ok((await succeeds("consumerGroups", ["--list"])).trim().split("\n").includes("bookkeepers"));
  const gone = await tool("consumerGroups", ["--describe", "--group", "bookkeepers"]);
  assert.match(gone.stdout + gone.stderr, /Consumer group 'bookkeepers' does not exist/);
});

test("after sluice broker restarts on its data directory, kafka-consumer-groups still lists and describes a group with its offsets", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-tools-restart-"));
  const started: SluiceProcess[] = [];
  const startBroker = async () => {
    const process = runSluice(["broker", "--broker.port=0", `--broker.data.dir=${dataDir}`]);
    started.push(process);
    return `127.0.0.1:${await brokerPort(process)}`;
  };
  const stopBroker = async (process: SluiceProcess) => {
    process.child.kill("SIGTERM");
    await process.exited;
  };
  try {
    const first = await startBroker();
    const run = (args: string[], input?: string) => java.run(KAFKA_TOOLS.consumerGroups, ["--bootstrap-server", first, ...args], { input });
    const created = await java.run(KAFKA_TOOLS.topics, ["--bootstrap-server", first, "--create", "--topic", "kept", "--partitions", "1"]);
    assert.is(created.code, 0, created.stderr);
    const produced = await java.run(KAFKA_TOOLS.consoleProducer, ["--bootstrap-server", first, "--topic", "kept"], { input: "a\nb\nc\n" });
    assert.is(produced.code, 0, produced.stderr);
    const reset = await run(["--reset-offsets", "--group", "archivists", "--topic", "kept", "--to-offset", "2", "--execute"]);
    assert.is(reset.code, 0, reset.stderr);
    await stopBroker(started[0]);

    const second = await startBroker();
    const tool = (args: string[]) => java.run(KAFKA_TOOLS.consumerGroups, ["--bootstrap-server", second, ...args]);
    assert.ok((await tool(["--list"])).stdout.trim().split("\n").includes("archivists"));
    const described = tableRows((await tool(["--describe", "--group", "archivists"])).stdout);
    assert.equal(described.map((row) => [row.TOPIC, row.PARTITION, row["CURRENT-OFFSET"], row["LOG-END-OFFSET"], row.LAG]), [["kept", "0", "2", "3", "1"]]);
    const [state] = tableRows((await tool(["--describe", "--group", "archivists", "--state"])).stdout);
    assert.equal([state.STATE, state["#MEMBERS"]], ["Empty", "0"]);
  } finally {
    for (const process of started) if (process.child.exitCode === null) await stopBroker(process);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
