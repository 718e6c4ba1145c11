/**
 * librdkafka's transactional producer (kcat 1.7 -P with -X transactional.id: one transaction, committed at the end
 * of its input) and its read_committed consumer against the embedded broker: a commit is read, a transaction left
 * open stops read_committed readers at its first record until its timeout aborts it, and a new producer of the same
 * transactional id aborts the transaction an old one left open.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { readToEnd } from "../../helpers/read-to-end";
import { exited, runKcat, startTestBroker, type TestBroker } from "./broker-test-kit";

const test = suite<{ broker: TestBroker; children: ChildProcess[] }>("broker: librdkafka transactions (kcat)");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ transactionTimeoutCheckIntervalMs: 50 });
  context.children = [];
});

test.after.each(async ({ broker, children }) => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map(exited));
  await broker.close();
});

/** Lines of kcat's read of `topic`, to the end its isolation level sees, and the offset it reports that end at. */
async function kcatRead(broker: TestBroker, topic: string, isolation: "read_committed" | "read_uncommitted"): Promise<{ values: string[]; end: number }> {
  const read = await runKcat(broker.bootstrap, ["-C", "-t", topic, "-p", "0", "-e", "-X", `isolation.level=${isolation}`, "-f", "%s\n"]);
  assert.is(read.code, 0, read.stderr);
  const end = /Reached end of topic \S+ \[0\] at offset (\d+)/.exec(read.stderr);
  assert.ok(end, read.stderr);
  return { values: read.stdout.split("\n").filter(Boolean), end: Number(end[1]) };
}

/**
 * A kcat producing within a transaction that it keeps open: its input stays open, and what it read of it is written
 * (kcat reads its input in blocks, so the lines are many enough to fill some).
 */
async function openTransaction(context: { broker: TestBroker; children: ChildProcess[] }, topic: string, transactionalId: string, timeoutMs: number): Promise<ChildProcess> {
  const child = spawn("kcat", ["-b", context.broker.bootstrap, "-P", "-t", topic, "-p", "0", "-X", `transactional.id=${transactionalId}`, "-X", `transaction.timeout.ms=${timeoutMs}`], { stdio: ["pipe", "ignore", "pipe"] });
  context.children.push(child);
  child.stdin!.write(Array.from({ length: 400 }, (_, i) => `open-${String(i).padStart(4, "0")}-${"x".repeat(40)}\n`).join(""));
  const written = async () => (await readToEnd(context.broker.bootstrap, topic, [0], "read_uncommitted")).records.some(({ value }) => value?.startsWith("open-"));
  await eventually(written, { what: "kcat's first transactional records" });
  return child;
}

test("records kcat produces in a transaction are read read_committed once it commits at the end of its input", async ({ broker }) => {
  const produced = await runKcat(broker.bootstrap, ["-P", "-t", "kcat-committed", "-X", "transactional.id=kcat-writer"], "a\nb\nc\n");
  assert.is(produced.code, 0, produced.stderr);
  assert.match(produced.stderr, /Transaction successfully committed/);
  // Three records and the commit marker.
  assert.equal(await kcatRead(broker, "kcat-committed", "read_committed"), { values: ["a", "b", "c"], end: 4 });
});

test("a transaction a killed kcat left open holds read_committed readers at its first record until its timeout aborts it", async (context) => {
  const { broker } = context;
  const committed = await runKcat(broker.bootstrap, ["-P", "-t", "kcat-open", "-p", "0", "-X", "transactional.id=kcat-before"], "before\n");
  assert.is(committed.code, 0, committed.stderr);
  const child = await openTransaction(context, "kcat-open", "kcat-killed", 3_000);
  child.kill("SIGKILL");
  await exited(child);
  const whileOpen = await kcatRead(broker, "kcat-open", "read_committed");
  assert.equal(whileOpen, { values: ["before"], end: 2 }, "the last stable offset is the open transaction's first record");

  // Aborted, the transaction holds no reader back: read_committed reaches the log's end, past the abort marker.
  const afterAbort = await eventually(
    async () => {
      const [stable, end] = await Promise.all([kcatRead(broker, "kcat-open", "read_committed"), readToEnd(broker.bootstrap, "kcat-open", [0], "read_uncommitted")]);
      return stable.end === end.ends[0] && stable;
    },
    { what: "the timeout's abort" },
  );
  assert.equal(afterAbort.values, ["before"]);
  assert.ok(afterAbort.end > whileOpen.end + 1, `the aborted records lie below the end (${afterAbort.end})`);
});

test("a new kcat with the same transactional id aborts the transaction an old one left open", async (context) => {
  const { broker } = context;
  const zombie = await openTransaction(context, "kcat-fenced", "kcat-shared", 60_000);
  const successor = await runKcat(broker.bootstrap, ["-P", "-t", "kcat-fenced", "-p", "0", "-X", "transactional.id=kcat-shared"], "successor\n");
  assert.is(successor.code, 0, successor.stderr);
  assert.equal((await kcatRead(broker, "kcat-fenced", "read_committed")).values, ["successor"]);
  zombie.kill("SIGKILL");
});

test.run();
