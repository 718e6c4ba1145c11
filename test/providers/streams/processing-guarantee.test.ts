/**
 * processing.guarantee: exactly_once_v2 runs wordcount on the embedded broker with every commit one transaction —
 * outputs read read_committed once each, stores exact after a stop and after a cleanup, the guarantee in the
 * instance description and transaction metrics; dead letters and pause/resume under it — and the guarantees Kafka
 * Streams 4.0 removed are refused by name; outputs leave within the open transaction before its commit.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ApplicationHandle } from "../../../kernel/contracts/streams/runtime";
import type { ReadOnlyKeyValueStore, ValueAndTimestamp } from "../../../kernel/contracts/streams/stores";
import { WordCountProvider } from "../../../providers/examples";
import { eventually } from "../../helpers/eventually";
import { readToEnd } from "../../helpers/read-to-end";
import { poisonSensitive } from "./poison-sensitive";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("processing.guarantee");
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness?.close();
});

async function storeContents(app: ApplicationHandle): Promise<Record<string, number>> {
  const handle = app.store("counts")!;
  const contents: Record<string, number> = {};
  for (const partition of handle.localPartitions()) {
    // wordcount's counts are a timestamped store, as Kafka Streams' count() makes them.
    const store = handle.readOnly(partition)!.store as ReadOnlyKeyValueStore<string, ValueAndTimestamp<number>>;
    for await (const { key, value } of store.all()) contents[key] = value.value;
  }
  return sortedCounts(contents);
}

const sortedCounts = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));

function trueCounts(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) for (const word of line.toLowerCase().split(/\s+/).filter(Boolean)) counts[word] = (counts[word] ?? 0) + 1;
  return sortedCounts(counts);
}

/** Every count wordcount wrote to word-counts, read read_committed, per word in order. */
async function committedOutputs(partitions: number): Promise<Map<string, number[]>> {
  const read = await readToEnd(harness.bootstrap[0], "word-counts", [...Array(partitions).keys()], "read_committed");
  const byWord = new Map<string, number[]>();
  for (const record of [...read.records].sort((a, b) => a.partition - b.partition || a.offset - b.offset)) {
    byWord.set(record.key!, [...(byWord.get(record.key!) ?? []), Number(record.valueBytes!.readBigInt64BE())]);
  }
  return byWord;
}

test("the guarantees Kafka Streams 4.0 removed are refused, naming the ones there are", async () => {
  for (const guarantee of ["exactly_once", "exactly_once_beta"]) {
    try {
      await harness.runtime([new WordCountProvider()], { config: { "processing.guarantee": guarantee } }).start();
      assert.unreachable(`${guarantee} started`);
    } catch (error) {
      assert.match((error as Error).message, "processing.guarantee");
      assert.match((error as Error).message, "must be one of at_least_once, exactly_once_v2");
    }
  }
});

test("exactly_once_v2: wordcount's outputs are committed once each, its stores exact, and its commits are transactions", async () => {
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "words", numPartitions: 2 }, { topic: "word-counts", numPartitions: 2 }] });
  await admin.disconnect();
  const runtime = harness.runtime([new WordCountProvider()], { config: { "processing.guarantee": "exactly_once_v2", "commit.interval.ms": 100 } });
  await runtime.start();
  const app = runtime.application("wordcount")!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 20_000 });
  assert.is(app.config()["processing.guarantee"], "exactly_once_v2");

  const lines = ["the cat sat", "the dog sat", "a cat and a dog", "one more cat"];
  await harness.producer.send({ topic: "words", messages: lines.map((value, i) => ({ key: `line-${i}`, value })) });
  const expected = trueCounts(lines);
  await eventually(async () => JSON.stringify(await storeContents(app)) === JSON.stringify(expected), { what: "every word counted", timeoutMs: 20_000 });
  await eventually(async () => {
    const outputs = await committedOutputs(2);
    return Object.entries(expected).every(([word, count]) => outputs.get(word)?.at(-1) === count);
  }, { what: "the last count of every word committed to word-counts", timeoutMs: 20_000 });
  // A word's counts go up one commit after another: none is written twice.
  for (const [word, counts] of await committedOutputs(2)) {
    assert.equal(counts, [...new Set(counts)].sort((a, b) => a - b), `the counts of ${word}`);
  }

  const metric = (name: string) => app.metrics().flatMap((group) => group.metrics).find((found) => found.name === name)?.value;
  assert.ok(Number(metric("txn-commit-total")) > 0, "transactions committed");
  assert.is(Number(metric("txn-abort-total")), 0, "none aborted");
  assert.ok(Number(metric("txn-latency-max")) > 0, "a transaction's latency");
  assert.ok(Number(metric("commit-total")) > 0, "commits counted as the thread's");

  // A stop commits the open transaction; the state after a restart is the same, and after a cleanup it is restored
  // from the changelogs, read read_committed.
  await app.stop();
  await app.restart();
  await eventually(() => app.state === "RUNNING", { what: "RUNNING again", timeoutMs: 20_000 });
  assert.equal(await storeContents(app), expected);
  await app.stop({ cleanup: true });
  await app.restart();
  await eventually(() => app.state === "RUNNING", { what: "RUNNING after a cleanup", timeoutMs: 20_000 });
  assert.equal(await storeContents(app), expected);
  const more = ["the end"];
  await harness.producer.send({ topic: "words", messages: more.map((value) => ({ key: "last", value })) });
  const all = trueCounts([...lines, ...more]);
  await eventually(async () => JSON.stringify(await storeContents(app)) === JSON.stringify(all), { what: "the restored counts going on", timeoutMs: 20_000 });
  await runtime.close(10_000);
});

/** poisonSensitive application `id` (topics `<id>-in`, `-out`, `-dlq`, one partition each) under exactly_once_v2, RUNNING. */
async function runningEosPipeline(id: string, commitIntervalMs: number) {
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [`${id}-in`, `${id}-out`, `${id}-dlq`].map((topic) => ({ topic, numPartitions: 1 })) });
  await admin.disconnect();
  const runtime = harness.runtime([poisonSensitive(id, { "processing.guarantee": "exactly_once_v2", "commit.interval.ms": commitIntervalMs })]);
  await runtime.start();
  const app = runtime.application(id)!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 20_000 });
  return { runtime, app };
}

test("exactly_once_v2: a dead letter is committed with its transaction, and a paused application commits what it holds and goes on when resumed", async () => {
  const { runtime, app } = await runningEosPipeline("eos-dlq", 1_000);
  const committedValues = async (topic: string) => (await readToEnd(harness.bootstrap[0], topic, [0], "read_committed")).records.map((record) => record.value);
  const metric = (name: string) => Number(app.metrics().flatMap((group) => group.metrics).find((found) => found.name === name)?.value ?? 0);

  await harness.producer.send({ topic: "eos-dlq-in", messages: ["fine", "poison pill", "also fine"].map((value, i) => ({ key: `k${i}`, value })) });
  // Paused once the records are processed: the transaction holding them (or the next) commits all the same.
  await eventually(() => metric("process-total") >= 3, { what: "the records processed", timeoutMs: 20_000 });
  app.pause();
  await eventually(async () => (await committedValues("eos-dlq-out")).length === 2 && (await committedValues("eos-dlq-dlq")).length === 1, {
    what: "the outputs and the dead letter committed while paused",
    timeoutMs: 20_000,
  });
  assert.ok(app.paused);
  assert.equal(await committedValues("eos-dlq-dlq"), ["poison pill"]);

  await harness.producer.send({ topic: "eos-dlq-in", messages: [{ key: "k3", value: "after the pause" }] });
  app.resume();
  await eventually(async () => (await committedValues("eos-dlq-out")).length === 3, { what: "the record sent while paused processed once resumed", timeoutMs: 20_000 });
  assert.equal(await committedValues("eos-dlq-out"), ["FINE", "ALSO FINE", "AFTER THE PAUSE"]);
  assert.equal(await committedValues("eos-dlq-dlq"), ["poison pill"]);
  assert.is(metric("txn-abort-total"), 0, "no transaction aborted");
  await runtime.close(10_000);
});

test("exactly_once_v2: outputs reach the broker within the open transaction as they are made, and read_committed readers see them at its commit", async () => {
  // A commit interval far longer than the test: only the stop below commits.
  const { runtime, app } = await runningEosPipeline("eos-ahead", 600_000);
  const values = async (isolation: "read_committed" | "read_uncommitted") => (await readToEnd(harness.bootstrap[0], "eos-ahead-out", [0], isolation)).records.map((record) => record.value);

  await harness.producer.send({ topic: "eos-ahead-in", messages: ["one", "two", "three"].map((value, i) => ({ key: `k${i}`, value })) });
  await eventually(async () => (await values("read_uncommitted")).length === 3, { what: "the outputs in the broker before any commit", timeoutMs: 20_000 });
  assert.equal(await values("read_uncommitted"), ["ONE", "TWO", "THREE"]);
  assert.equal(await values("read_committed"), [], "nothing committed yet");
  await app.stop();
  assert.equal(await values("read_committed"), ["ONE", "TWO", "THREE"], "committed by the stop, once each");
  await runtime.close(10_000);
});

test.run();
