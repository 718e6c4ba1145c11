import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ApplicationHandle } from "../../../kernel/contracts/streams/runtime";
import { WordCountProvider } from "../../../providers/examples";
import { eventually } from "../../helpers/eventually";
import { startHarness, type Harness } from "./streams-harness";
import { rowValues } from "../../helpers/table-rows";

const test = suite("StreamsRuntime on the embedded broker");
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness.close();
});

async function storeContents(app: ApplicationHandle, name: string): Promise<Record<string, unknown>> {
  const handle = app.store(name)!;
  const contents: Record<string, unknown> = {};
  for (const partition of handle.localPartitions()) {
    for (const [key, value] of await rowValues(handle.readOnly(partition)!)) contents[key as string] = value;
  }
  return Object.fromEntries(Object.entries(contents).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function expectedCounts(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) for (const word of line.toLowerCase().split(/\s+/).filter(Boolean)) counts[word] = (counts[word] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
}

test("wordcount counts words end to end: topic in, store and output topic out", async () => {
  await harness.kafka.admin().createTopics({ topics: [{ topic: "words", numPartitions: 3 }] }).catch(() => undefined);
  const runtime = harness.runtime([new WordCountProvider()], { server: "127.0.0.1:7001" });
  await runtime.start();
  const app = runtime.application("wordcount")!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  const lines = ["the cat sat", "The dog sat", "a cat and a dog"];
  await harness.producer.send({ topic: "words", messages: lines.map((value, i) => ({ key: `line-${i}`, value })) });
  const expected = expectedCounts(lines);
  await eventually(async () => JSON.stringify(await storeContents(app, "counts")) === JSON.stringify(expected), { what: "all words counted", timeoutMs: 15_000 });
  assert.equal(await storeContents(app, "counts"), expected);
  // The record cache folds a key's updates within a commit: the output ends with every word's count, not one record per word.
  const latest = (records: { key: string | null; value: Buffer | null }[]) => new Map(records.map((record) => [record.key, Number(record.value!.readBigInt64BE())]));
  const output = await harness.readTopic("word-counts", (records) => Object.entries(expected).every(([word, count]) => latest(records).get(word) === count));
  const last = new Map(output.map((record) => [record.key, record.value!.readBigInt64BE()]));
  assert.is(last.get("cat"), 2n);
  assert.is(last.get("sat"), 2n);

  const status = app.status();
  assert.is(status.threads[0].activeTasks.length, 6);
  const instances = await app.instances();
  assert.equal(instances.map((i) => [i.server, i.isLocal, i.stores]), [["127.0.0.1:7001", true, ["counts"]]]);
  const owner = await app.ownerOf("counts", "cat");
  assert.is(owner.instance?.server, "127.0.0.1:7001");
  const offsets = await app.offsets();
  assert.ok(offsets.consumers[0].positions.some((p) => p.topic === "words" && p.consumedOffset >= 0));
  const groups = app.metrics().map((group) => group.name);
  for (const group of ["app-info", "consumer-fetch-manager-metrics", "producer-metrics", "stream-state-metrics", "stream-task-metrics", "stream-thread-metrics"]) {
    assert.ok(groups.includes(group), `metric group ${group}`);
  }
  assert.equal(app.topology().subTopologies.length, 2);

  // stop/start keeps state
  await app.stop();
  assert.is(app.state, "NOT_RUNNING");
  await app.restart();
  await eventually(() => app.state === "RUNNING", { what: "RUNNING again", timeoutMs: 15_000 });
  assert.equal(await storeContents(app, "counts"), expected);

  // cleanup then start restores identical contents from the changelog
  await app.stop({ cleanup: true });
  await app.restart();
  await eventually(() => app.state === "RUNNING", { what: "RUNNING after cleanup", timeoutMs: 15_000 });
  assert.equal(await storeContents(app, "counts"), expected);
  const statuses = await app.storesStatus();
  assert.ok(statuses.some((s) => s.restoredRecords > 0));

  // more input after the restore still counts exactly
  await harness.producer.send({ topic: "words", messages: [{ key: "x", value: "cat" }] });
  await eventually(async () => (await storeContents(app, "counts")).cat === 3, { what: "cat counted 3 times", timeoutMs: 15_000 });
  await runtime.close();
});

test.run();
