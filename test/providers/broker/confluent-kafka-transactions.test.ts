/**
 * Python confluent-kafka's transactional API (librdkafka) against the embedded broker: commits and aborts as its
 * read_committed consumer sees them, fencing of an old producer by a new one, a timed-out transaction, and offsets
 * sent to a transaction. Needs a Python with confluent-kafka (.ci/run makes .venv); without one the tests fail.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { fixturePath, JsonLinesProgram, pythonWithConfluentKafka, type JsonLine } from "../../helpers/json-lines-program";
import { readToEnd } from "../../helpers/read-to-end";
import { startTestBroker, type TestBroker } from "./broker-test-kit";

const test = suite<{ broker: TestBroker; programs: JsonLinesProgram[] }>("broker: confluent-kafka (Python) transactions");

const SCRIPT = fixturePath("python", "transactional_client.py");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ transactionTimeoutCheckIntervalMs: 50 });
  context.programs = [];
});

test.after.each(async ({ broker, programs }) => {
  await Promise.all(programs.map((program) => program.stop()));
  await broker.close();
});

function pythonProducer(context: { broker: TestBroker; programs: JsonLinesProgram[] }, transactionalId: string, ...settings: string[]): JsonLinesProgram {
  const program = JsonLinesProgram.start(pythonWithConfluentKafka(), [SCRIPT, "produce", context.broker.bootstrap, transactionalId, ...settings], `python producer ${transactionalId}`);
  context.programs.push(program);
  return program;
}

/** Values of partition 0 that confluent-kafka's consumer reads at `isolation`, up to the sentinel record. */
async function pythonRead(context: { broker: TestBroker; programs: JsonLinesProgram[] }, topic: string, isolation: string, sentinel: string): Promise<string[]> {
  const program = JsonLinesProgram.start(pythonWithConfluentKafka(), [SCRIPT, "read", context.broker.bootstrap, topic, isolation, sentinel], "python reader");
  context.programs.push(program);
  return (await program.next()).values as string[];
}

async function ok(program: JsonLinesProgram, ...commands: string[]): Promise<void> {
  for (const command of commands) assert.equal(await program.ask(command), { op: command.split(" ")[0], ok: true }, command);
}

test("a read_committed confluent-kafka consumer reads the committed transactions and skips the aborted one", async (context) => {
  const producer = pythonProducer(context, "py-writer");
  await ok(producer, "init", "begin", "send py-topic 0 a", "send py-topic 0 b", "commit", "begin", "send py-topic 0 x", "abort", "begin", "send py-topic 0 end", "commit");
  assert.equal(await pythonRead(context, "py-topic", "read_committed", "end"), ["a", "b", "end"]);
  assert.equal(await pythonRead(context, "py-topic", "read_uncommitted", "end"), ["a", "b", "x", "end"]);
});

test("a new confluent-kafka producer with the same transactional id fences the old one, whose commit fails fatally", async (context) => {
  const zombie = pythonProducer(context, "py-shared");
  await ok(zombie, "init", "begin", "send py-fenced 0 zombie");
  const successor = pythonProducer(context, "py-shared");
  await ok(successor, "init");
  const commit = await zombie.ask("commit");
  assert.equal([commit.ok, commit.fatal], [false, true], JSON.stringify(commit));
  assert.match(String(commit.error), /FENCED|EPOCH/);
  await ok(successor, "begin", "send py-fenced 0 successor", "commit");
  assert.equal(await pythonRead(context, "py-fenced", "read_committed", "successor"), ["successor"]);
});

test("a confluent-kafka transaction left silent past its timeout is aborted: its producer cannot commit it", async (context) => {
  const producer = pythonProducer(context, "py-slow", "transaction.timeout.ms=1000");
  await ok(producer, "init", "begin", "send py-slow 0 late");
  // The abort marker lets read_committed readers past the transaction: its record and the marker.
  await eventually(async () => (await readToEnd(context.broker.bootstrap, "py-slow", [0], "read_committed")).ends[0] === 2, { what: "the timeout's abort" });
  const commit: JsonLine = await producer.ask("commit");
  assert.is(commit.ok, false, JSON.stringify(commit));
  assert.ok(commit.fatal === true || commit.abortable === true, JSON.stringify(commit));
  assert.equal((await readToEnd(context.broker.bootstrap, "py-slow", [0], "read_committed")).records, []);
});

test("offsets confluent-kafka sends to a transaction are the group's once it commits", async (context) => {
  const producer = pythonProducer(context, "py-copier");
  await ok(producer, "init", "begin", "send py-in 0 record", "commit", "begin", "send py-out 0 copied", "offsets py-group py-in 0 1", "commit");
  const admin = context.broker.kafka().admin();
  await admin.connect();
  const [offsets] = await admin.fetchOffsets({ groupId: "py-group", topics: ["py-in"] });
  await admin.disconnect();
  assert.equal(offsets.partitions.map(({ partition, offset }) => [partition, offset]), [[0, "1"]]);
});

test.run();
