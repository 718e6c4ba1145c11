/**
 * A real Kafka Streams 4.x application on the embedded broker: its internal topics made through AdminClient with
 * their configs, its own assignor's user data carried by the classic group protocol, commits, restores from
 * changelogs, and exact results read back from the output topics and from its stores.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestBroker, type TestBroker } from "../providers/broker/broker-test-kit";
import { eventually } from "../helpers/eventually";
import { JavaProcesses, REFERENCE_PACKAGE, SIGTERM_EXIT, stopJava, type JavaProcess } from "../helpers/reference-java";

const APP = `${REFERENCE_PACKAGE}.streams.ReferenceStreamsApp`;
const PRODUCER = `${REFERENCE_PACKAGE}.clients.DefaultProducer`;
const READER = `${REFERENCE_PACKAGE}.clients.TopicReader`;

interface Context {
  broker: TestBroker;
  java: JavaProcesses;
  stateDirs: string[];
}

const test = suite<Context>("reference: a Kafka Streams application on the embedded broker");

test.before.each(async (context) => {
  context.broker = await startTestBroker();
  context.java = new JavaProcesses();
  context.stateDirs = [];
});

test.after.each(async ({ broker, java, stateDirs }) => {
  await java.stopAll();
  await broker.close();
  for (const dir of stateDirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Input {
  key?: string;
  value: string;
  timestamp?: number;
}

interface OutputRecord {
  partition: number;
  offset: number;
  timestamp: number;
  key: string;
  value: string | number;
}

async function createTopics({ broker }: Context, topics: Record<string, number>) {
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: Object.entries(topics).map(([topic, numPartitions]) => ({ topic, numPartitions })) });
}

async function produce({ broker, java }: Context, topic: string, records: Input[]) {
  const run = await java.run(PRODUCER, [broker.bootstrap, topic], { input: records.map((record) => JSON.stringify(record)).join("\n") });
  assert.is(run.code, 0, run.stderr);
}

async function readTopic({ broker, java }: Context, topic: string, values: "string" | "long" = "string", isolation: "read_uncommitted" | "read_committed" = "read_uncommitted"): Promise<OutputRecord[]> {
  const run = await java.run(READER, [broker.bootstrap, topic, values, isolation]);
  assert.is(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  return lines.filter((line) => line.event === "record") as unknown as OutputRecord[];
}

/** Asserts that each key's count goes up from one update to the next: no update was lost or read twice. */
function assertCountsOnlyGrow(records: OutputRecord[]): void {
  const byKey = new Map<string, number[]>();
  for (const { key, value } of records) byKey.set(key, [...(byKey.get(key) ?? []), value as number]);
  for (const [key, counts] of byKey) assert.ok(counts.every((count, i) => i === 0 || count > counts[i - 1]), `${key}: ${counts.join(",")}`);
}

/** The last value of each key, as a compacted topic would keep it. */
const latestByKey = (records: OutputRecord[]) => Object.fromEntries(records.map((record) => [record.key, record.value]));

/** Starts an instance of `topology` with a fresh state directory (or `stateDir`), committing every 100 ms. */
function startApp(context: Context, applicationId: string, topology: string, options: { stateDir?: string; configs?: string[] } = {}): { app: JavaProcess; stateDir: string } {
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "sluice-kstreams-"));
  if (!context.stateDirs.includes(stateDir)) context.stateDirs.push(stateDir);
  const configs = ["processing.guarantee=at_least_once", "commit.interval.ms=100", ...(options.configs ?? [])];
  const app = context.java.start(APP, [context.broker.bootstrap, applicationId, stateDir, topology, ...configs]);
  return { app, stateDir };
}

const running = (app: JavaProcess, from = 0) =>
  app.waitForLine((line) => line.event === "state" && line.state === "RUNNING", "RUNNING", { from, timeoutMs: 90_000 });

/** The entries of a store of a running instance, asked until they equal `expected` (its last answer otherwise). */
async function storeReaches(app: JavaProcess, store: string, expected: Record<string, unknown>, windowed = false): Promise<void> {
  let last: unknown;
  try {
    await eventually(
      async () => {
        const from = app.lines().length;
        app.send(JSON.stringify({ store, windowed }));
        const answer = await app.waitForLine((line) => line.event === "store" && line.store === store, `an answer about ${store}`, { from, timeoutMs: 10_000 });
        last = answer.entries ?? answer.error;
        assert.equal(answer.entries, expected);
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 250, what: `store ${store} to hold what is expected` },
    );
  } catch (error) {
    assert.equal(last, expected, `store ${store}: ${(error as Error).message}`);
  }
}

async function stopApp(app: JavaProcess) {
  const exit = await stopJava(app);
  assert.is(exit.code, SIGTERM_EXIT, app.stderr());
  assert.equal(app.lines().filter((line) => line.event === "failed"), []);
  assert.ok(app.lines().some((line) => line.event === "closed"));
}

const LINES = Array.from({ length: 300 }, (_, i) => `the ${["quick", "lazy", "brown"][i % 3]} fox ${["jumps", "sleeps"][i % 2]} over dog ${i % 7}`);

function wordCounts(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) for (const word of line.toLowerCase().split(/\W+/).filter(Boolean)) counts[word] = (counts[word] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const keyedLines = (lines: string[], from = 0) => lines.map((value, i) => ({ key: `line-${from + i}`, value }));

test("wordcount at_least_once counts every word exactly, and after its state is wiped restores the counts from the changelog", async (context) => {
  await createTopics(context, { "text-lines": 3 });
  const [first, second] = [LINES.slice(0, 200), LINES.slice(200)];
  await produce(context, "text-lines", keyedLines(first));
  const { app, stateDir } = startApp(context, "wordcount", "wordcount");
  await running(app);
  await storeReaches(app, "word-counts", wordCounts(first));
  await stopApp(app);

  // The internal topics as Kafka Streams asked for them: partitioned like the input, the changelog compacted.
  const admin = context.broker.kafka().admin();
  await admin.connect();
  const internal = await admin.fetchTopicMetadata({ topics: ["wordcount-words-repartition", "wordcount-word-counts-changelog"] });
  assert.equal(internal.topics.map(({ name, partitions }) => [name, partitions.length]).sort(), [["wordcount-word-counts-changelog", 3], ["wordcount-words-repartition", 3]]);
  const configs = await admin.describeConfigs({
    includeSynonyms: false,
    resources: ["wordcount-words-repartition", "wordcount-word-counts-changelog"].map((name) => ({ type: 2, name, configNames: ["cleanup.policy"] })),
  });
  assert.equal(
    configs.resources.map(({ resourceName, configEntries }) => [resourceName, configEntries[0].configValue]).sort(),
    [["wordcount-word-counts-changelog", "compact"], ["wordcount-words-repartition", "delete"]],
  );

  // No local state left: the restarted instance restores its store from the changelog, then counts on.
  fs.rmSync(stateDir, { recursive: true, force: true });
  fs.mkdirSync(stateDir);
  await produce(context, "text-lines", keyedLines(second, first.length));
  const restarted = startApp(context, "wordcount", "wordcount", { stateDir }).app;
  await running(restarted);
  await storeReaches(restarted, "word-counts", wordCounts(LINES));
  await stopApp(restarted);

  const output = await readTopic(context, "word-counts-output", "long");
  assert.equal(latestByKey(output), wordCounts(LINES));
  assertCountsOnlyGrow(output);

  // The group committed every input record.
  const ends = await admin.fetchTopicOffsets("text-lines");
  const [committed] = await admin.fetchOffsets({ groupId: "wordcount", topics: ["text-lines"] });
  const offsets = (list: { partition: number; offset: string }[]) => Object.fromEntries(list.map(({ partition, offset }) => [partition, offset]));
  assert.equal(offsets(committed.partitions), offsets(ends.map(({ partition, high }) => ({ partition, offset: high }))));
});

test("two instances split the tasks through Kafka Streams' own assignor, and their stores together hold the exact counts", async (context) => {
  await createTopics(context, { "text-lines": 4 });
  const instances = [startApp(context, "wordcount-pair", "wordcount").app, startApp(context, "wordcount-pair", "wordcount").app];
  // Each instance reaches RUNNING once both are in the group and hold their tasks.
  await eventually(
    () => {
      const holdsTasks = (app: JavaProcess) => {
        const states = app.lines().filter((line) => line.event === "state");
        return states.at(-1)?.state === "RUNNING";
      };
      return instances.every(holdsTasks);
    },
    { timeoutMs: 90_000, intervalMs: 200, what: "both instances to run" },
  );
  await produce(context, "text-lines", keyedLines(LINES));
  const expected = wordCounts(LINES);
  const entriesOf = async (app: JavaProcess) => {
    const from = app.lines().length;
    app.send(JSON.stringify({ store: "word-counts" }));
    const answer = await app.waitForLine((line) => line.event === "store", "an answer about word-counts", { from, timeoutMs: 10_000 });
    return (answer.entries ?? {}) as Record<string, number>;
  };
  let split: Record<string, number>[] = [];
  await eventually(
    async () => {
      split = await Promise.all(instances.map(entriesOf));
      const union = Object.fromEntries(Object.entries(Object.assign({}, ...split) as Record<string, number>).sort(([a], [b]) => (a < b ? -1 : 1)));
      assert.equal(union, expected);
      return true;
    },
    { timeoutMs: 60_000, intervalMs: 250, what: "the two stores to hold the counts" },
  );
  // Both instances own tasks, and no word is counted in both.
  assert.ok(split.every((entries) => Object.keys(entries).length > 0), JSON.stringify(split));
  assert.equal(Object.keys(split[0]).filter((word) => word in split[1]), []);
  for (const app of instances) await stopApp(app);
  assert.equal(latestByKey(await readTopic(context, "word-counts-output", "long")), expected);
});

test("wordcount under exactly_once_v2, SIGKILLed mid-stream and started again on its state, counts every word once: its store and its output read read_committed", async (context) => {
  await createTopics(context, { "text-lines": 3 });
  // Enough lines that the instance is killed with transactions still to commit.
  const lines = Array.from({ length: 12_000 }, (_, i) => LINES[i % LINES.length]);
  const [first, second] = [lines.slice(0, 10_000), lines.slice(10_000)];
  await produce(context, "text-lines", keyedLines(first));
  const eos = { configs: ["processing.guarantee=exactly_once_v2"] };
  const { app, stateDir } = startApp(context, "wordcount-eos", "wordcount", eos);
  const admin = context.broker.kafka().admin();
  await admin.connect();
  const committedInputs = async () => {
    const [committed] = await admin.fetchOffsets({ groupId: "wordcount-eos", topics: ["text-lines"] });
    return committed.partitions.reduce((sum, { offset }) => sum + Math.max(Number(offset), 0), 0);
  };
  // Killed once its transactions have committed some of the lines, not all.
  const before = await eventually(async () => {
    const count = await committedInputs();
    return count > 0 && count;
  }, { timeoutMs: 90_000, intervalMs: 20, what: "the first transaction to commit input offsets" });
  app.child.kill("SIGKILL");
  await app.exited;
  assert.ok(before < first.length, `killed after ${before} of ${first.length} lines were committed`);

  await produce(context, "text-lines", keyedLines(second, first.length));
  const restarted = startApp(context, "wordcount-eos", "wordcount", { ...eos, stateDir }).app;
  await running(restarted);
  await storeReaches(restarted, "word-counts", wordCounts(lines));
  await stopApp(restarted);
  assert.is(await committedInputs(), lines.length, "the group committed every line");
  await admin.disconnect();

  // Committed output only: each word's counts go up one update after another, to its true count (none written twice).
  const output = await readTopic(context, "word-counts-output", "long", "read_committed");
  assert.equal(latestByKey(output), wordCounts(lines));
  assertCountsOnlyGrow(output);
});

const REGIONS = ["emea", "apac", "amer"];
const CUSTOMERS = Array.from({ length: 10 }, (_, i) => ({ key: `customer-${i}`, value: REGIONS[i % 3] }));
const orders = (from: number, count: number, customer: (i: number) => string) =>
  Array.from({ length: count }, (_, n) => ({ key: `order-${from + n}`, value: `${customer(from + n)}:${(from + n) * 10}` }));

test("a stream re-keyed through a repartition topic joins the table of customers exactly, and sees a customer's update", async (context) => {
  await createTopics(context, { customers: 3, orders: 3 });
  await produce(context, "customers", CUSTOMERS);
  const { app } = startApp(context, "enrich", "enrich-orders");
  await running(app);
  await storeReaches(app, "customers-store", Object.fromEntries(CUSTOMERS.map(({ key, value }) => [key, value])));

  // 60 orders of known customers and 5 of one the table does not have: the inner join drops those.
  const known = orders(0, 60, (i) => `customer-${i % 10}`);
  const unknown = orders(60, 5, () => "customer-unknown");
  await produce(context, "orders", [...known, ...unknown]);
  const enriched = (list: Input[], region: (customer: string) => string) =>
    Object.fromEntries(list.map(({ key, value }) => {
      const [customer, amount] = value.split(":");
      return [key!, `${customer}:${amount}:${region(customer)}`];
    }));
  const regionOf = (customer: string) => REGIONS[Number(customer.split("-")[1]) % 3];
  await eventually(async () => (await readTopic(context, "orders-enriched")).length >= known.length, { timeoutMs: 60_000, intervalMs: 500, what: "the first orders to be enriched" });

  // customer-0 moves: orders after the table has the update get the new region.
  await produce(context, "customers", [{ key: "customer-0", value: "latam" }]);
  await storeReaches(app, "customers-store", Object.fromEntries(CUSTOMERS.map(({ key, value }) => [key, key === "customer-0" ? "latam" : value])));
  const later = orders(100, 10, () => "customer-0");
  await produce(context, "orders", later);
  await eventually(async () => (await readTopic(context, "orders-enriched")).length >= known.length + later.length, {
    timeoutMs: 60_000,
    intervalMs: 500,
    what: "the later orders to be enriched",
  });
  await stopApp(app);

  const output = await readTopic(context, "orders-enriched");
  assert.is(output.length, known.length + later.length, "each order once");
  assert.equal(latestByKey(output), { ...enriched(known, regionOf), ...enriched(later, () => "latam") });
});

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
/** Clicks of three users over five minutes, some out of order (within the hour of grace). */
const CLICKS = Array.from({ length: 150 }, (_, i) => ({ key: `user-${i % 3}`, value: `click-${i}`, timestamp: T0 + ((i * 7919) % (5 * MINUTE)) }));

test("a windowed count gives every user's clicks per minute exactly, in the store and in the output topic", async (context) => {
  await createTopics(context, { clicks: 2 });
  await produce(context, "clicks", CLICKS);
  const expected: Record<string, number> = {};
  for (const { key, timestamp } of CLICKS) {
    const window = `${key}@${timestamp - ((timestamp - T0) % MINUTE)}`;
    expected[window] = (expected[window] ?? 0) + 1;
  }
  const sorted = Object.fromEntries(Object.entries(expected).sort(([a], [b]) => (a < b ? -1 : 1)));
  const { app } = startApp(context, "clicks", "clicks-per-minute");
  await running(app);
  await storeReaches(app, "clicks-per-minute", sorted, true);
  await stopApp(app);
  const output = await readTopic(context, "clicks-per-minute-output", "long");
  assert.equal(latestByKey(output), sorted);
  // Every output record carries the time of the latest click it counts, within its window.
  for (const { key, timestamp } of output) {
    const start = Number(key.split("@")[1]);
    assert.ok(timestamp >= start && timestamp < start + MINUTE, `${key} at ${timestamp}`);
  }
});

test.run();
