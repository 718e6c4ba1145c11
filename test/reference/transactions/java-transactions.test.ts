/**
 * Apache Kafka 4.4's Java clients against the embedded broker's transactions: a kafka-clients transactional producer
 * (TransactionalProducerProgram) and read_committed consumer (clients.TopicReader) see commits, skip
 * aborts, stop at an open transaction; an old producer is fenced by a new one; a silent producer's transaction is
 * aborted at its timeout; and Kafka's kafka-transactions tool lists and describes the transactions.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { JsonLinesProgram, referenceJava, runReferenceJava, type JsonLine } from "../../helpers/json-lines-program";
import { readToEnd } from "../../helpers/read-to-end";
import { committedOffsets } from "../../helpers/transaction-scenarios";
import { startTestBroker, type TestBroker } from "../../providers/broker/broker-test-kit";

interface Context {
  broker: TestBroker;
  programs: JsonLinesProgram[];
}

const test = suite<Context>("reference: Java transactional clients on the embedded broker");

const PACKAGE = "dev.sluice.reference.transactions";
const TOPIC_READER = "dev.sluice.reference.clients.TopicReader";

test.before.each(async (context) => {
  context.broker = await startTestBroker({ transactionTimeoutCheckIntervalMs: 100, numPartitions: 2 });
  context.programs = [];
});

test.after.each(async ({ broker, programs }) => {
  await Promise.all(programs.map((program) => program.stop()));
  await broker.close();
});

function javaProducer(context: Context, transactionalId: string, ...settings: string[]): JsonLinesProgram {
  const java = referenceJava(`${PACKAGE}.TransactionalProducerProgram`, [context.broker.bootstrap, transactionalId, ...settings]);
  const program = JsonLinesProgram.start(java.command, java.args, `Java producer ${transactionalId}`);
  context.programs.push(program);
  return program;
}

/** What the Java consumer reads of every partition, to the ends its isolation level sees. */
async function javaRead(context: Context, topic: string, isolation: "read_committed" | "read_uncommitted"): Promise<{ values: Record<number, string[]>; ends: Record<string, number> }> {
  const java = referenceJava(TOPIC_READER, [context.broker.bootstrap, topic, "string", isolation]);
  const program = JsonLinesProgram.start(java.command, java.args, `Java consumer ${isolation}`);
  context.programs.push(program);
  const values: Record<number, string[]> = {};
  for (;;) {
    const line = await program.next();
    if (line.end !== undefined) return { values, ends: line.end as Record<string, number> };
    (values[line.partition as number] ??= []).push(line.value as string);
  }
}

async function ok(program: JsonLinesProgram, ...commands: string[]): Promise<void> {
  for (const command of commands) {
    const answer = await program.ask(command);
    assert.equal([answer.op, answer.ok], [command.split(" ")[0], true], `${command}: ${JSON.stringify(answer)}`);
  }
}

async function failure(program: JsonLinesProgram, command: string): Promise<JsonLine> {
  const answer = await program.ask(command);
  assert.is(answer.ok, false, `${command}: ${JSON.stringify(answer)}`);
  return answer;
}

test("a kafka-clients transactional producer's commits are read read_committed, its abort is skipped, its offsets committed", async (context) => {
  const producer = javaProducer(context, "java-writer");
  await ok(producer, "init", "begin", "send java-t 0 k1 a", "send java-t 1 k2 b", "commit");
  await ok(producer, "begin", "send java-t 0 k3 x", "abort");
  await ok(producer, "begin", "send java-t 0 k4 c", "offsets java-group java-t 0 5", "commit", "close");

  assert.equal(await javaRead(context, "java-t", "read_committed"), { values: { 0: ["a", "c"], 1: ["b"] }, ends: { 0: 6, 1: 2 } });
  assert.equal((await javaRead(context, "java-t", "read_uncommitted")).values, { 0: ["a", "x", "c"], 1: ["b"] });
  assert.equal(await committedOffsets(context.broker.bootstrap, "java-group", "java-t", [0]), [[0, 5n]]);
});

test("a read_committed kafka-clients consumer stops at an open transaction; kafka-transactions lists and describes it", async (context) => {
  const before = javaProducer(context, "java-before");
  await ok(before, "init", "begin", "send java-open 0 k before", "commit");
  const open = javaProducer(context, "java-open-writer");
  await ok(open, "init", "begin", "send java-open 0 k open");

  assert.equal(await javaRead(context, "java-open", "read_committed"), { values: { 0: ["before"] }, ends: { 0: 2, 1: 0 } });
  assert.equal((await javaRead(context, "java-open", "read_uncommitted")).values, { 0: ["before", "open"] });

  const tool = (...args: string[]) => runReferenceJava("org.apache.kafka.tools.TransactionsCommand", ["--bootstrap-server", context.broker.bootstrap, ...args]);
  const listed = await tool("list");
  assert.is(listed.code, 0, listed.stderr);
  const rows = listed.stdout.split("\n").slice(1).filter(Boolean).map((line) => line.split(/\s+/).filter(Boolean));
  assert.equal(rows.map(([id, coordinator, , state]) => [id, coordinator, state]).sort(), [["java-before", "0", "CompleteCommit"], ["java-open-writer", "0", "Ongoing"]]);
  const described = await tool("describe", "--transactional-id", "java-open-writer");
  assert.is(described.code, 0, described.stderr);
  const [header, row] = described.stdout.split("\n").map((line) => line.split(/\t/).map((cell) => cell.trim()));
  const fields = Object.fromEntries(header.map((name, i) => [name, row[i]]));
  assert.is(fields.TransactionState, "Ongoing");
  assert.is(fields.TopicPartitions, "java-open-0");

  await ok(open, "commit");
  assert.equal((await javaRead(context, "java-open", "read_committed")).values, { 0: ["before", "open"] });
});

test("a new kafka-clients producer with the same transactional id fences the old one", async (context) => {
  const zombie = javaProducer(context, "java-shared");
  await ok(zombie, "init", "begin", "send java-fenced 0 k zombie");
  const successor = javaProducer(context, "java-shared");
  await ok(successor, "init");
  const sent = await failure(zombie, "send java-fenced 0 k zombie-again");
  assert.match(String(sent.error), /ProducerFencedException|InvalidProducerEpochException/);
  await failure(zombie, "commit");
  await ok(successor, "begin", "send java-fenced 0 k successor", "commit");
  assert.equal((await javaRead(context, "java-fenced", "read_committed")).values, { 0: ["successor"] });
});

test("a kafka-clients transaction left silent past its timeout is aborted, and its producer cannot commit it", async (context) => {
  const producer = javaProducer(context, "java-slow", "transaction.timeout.ms=1000");
  await ok(producer, "init", "begin", "send java-slow 0 k late");
  // Aborted, the transaction holds no reader back: its record and its marker lie below the last stable offset.
  await eventually(async () => (await readToEnd(context.broker.bootstrap, "java-slow", [0], "read_committed")).ends[0] === 2, { what: "the timeout's abort" });
  const commit = await failure(producer, "commit");
  assert.match(String(commit.error), /ProducerFencedException|InvalidProducerEpochException/);
  assert.equal(await javaRead(context, "java-slow", "read_committed"), { values: {}, ends: { 0: 2, 1: 0 } });
});

test.run();
