/**
 * The purge of consumed repartition records: wordcount's repartition topic is purged up to what the application
 * committed (never its input, output or changelog), not before repartition.purge.interval.ms, and a restart goes on
 * from the commits without reading below the purged log start.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ApplicationHandle } from "../../../../kernel/contracts/streams/runtime";
import { createLogger } from "../../../../kernel/logger";
import { WordCountProvider } from "../../../../providers/examples";
import { StreamsRuntime } from "../../../../providers/streams";
import { eventually } from "../../../helpers/eventually";
import { startHarness, type Harness } from "../streams-harness";
import { rowValues } from "../../../helpers/table-rows";

const test = suite<{ harness: Harness; warnings: string[]; runtimes: StreamsRuntime[] }>("streams: consumed repartition records are purged");

test.before.each(async (context) => {
  context.harness = await startHarness();
  context.warnings = [];
  context.runtimes = [];
  await context.harness.kafka.admin().createTopics({ topics: [{ topic: "words", numPartitions: 2 }] });
});

test.after.each(async ({ harness, runtimes }) => {
  for (const runtime of runtimes) await runtime.close(5_000);
  await harness.close();
});

async function startWordcount(context: { harness: Harness; warnings: string[]; runtimes: StreamsRuntime[] }, purgeIntervalMs: number): Promise<ApplicationHandle> {
  const runtime = new StreamsRuntime({
    bootstrapServers: context.harness.bootstrap,
    streamsConfig: { "state.dir": context.harness.stateDir(), "commit.interval.ms": 50, "repartition.purge.interval.ms": purgeIntervalMs },
    logger: createLogger("warn", {}, (line) => void context.warnings.push(line)),
  });
  runtime.addProvider(new WordCountProvider());
  context.runtimes.push(runtime);
  await runtime.start();
  const app = runtime.application("wordcount")!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  return app;
}

async function counts(app: ApplicationHandle): Promise<Record<string, number>> {
  const handle = app.store("counts")!;
  const contents: Record<string, number> = {};
  for (const partition of handle.localPartitions()) {
    for (const [key, value] of await rowValues(handle.readOnly(partition)!)) contents[key as string] = Number(value);
  }
  return contents;
}

/** Sends `rounds` lines of "w<i> shared", one produce each, waiting for each to be counted so the application commits in between. */
async function feed(harness: Harness, app: ApplicationHandle, from: number, rounds: number): Promise<void> {
  for (let i = from; i < from + rounds; i++) {
    await harness.producer.send({ topic: "words", messages: [{ key: `line-${i}`, value: `w${i} shared` }] });
    await eventually(async () => (await counts(app)).shared === i + 1, { what: `line ${i} counted`, timeoutMs: 15_000 });
  }
}

/** Log start offsets of each of the application's topics: topic → [low, high] per partition. */
async function logStarts(harness: Harness): Promise<Record<string, [number, number][]>> {
  const admin = harness.kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((topic) => topic === "words" || topic === "word-counts" || topic.startsWith("wordcount-"));
    const starts: Record<string, [number, number][]> = {};
    for (const topic of topics.sort()) starts[topic] = (await admin.fetchTopicOffsets(topic)).map(({ low, high }) => [Number(low), Number(high)]);
    return starts;
  } finally {
    await admin.disconnect();
  }
}

const repartitionOf = (starts: Record<string, [number, number][]>) => Object.entries(starts).filter(([topic]) => topic.endsWith("-repartition"));

test("the repartition topic's log start rises to the commits, no other topic is purged, and a restart goes on from there", async (context) => {
  const { harness } = context;
  let app = await startWordcount(context, 0);
  await feed(harness, app, 0, 8);
  const purged = await eventually(
    async () => {
      const starts = await logStarts(harness);
      const [[, partitions]] = repartitionOf(starts);
      return partitions.reduce((sum, [low]) => sum + low, 0) > 0 && starts;
    },
    { what: "the repartition topic purged" },
  );
  for (const [topic, partitions] of Object.entries(purged)) {
    if (topic.endsWith("-repartition")) continue;
    assert.ok(partitions.every(([low]) => low === 0), `${topic} is not purged: ${JSON.stringify(partitions)}`);
  }
  const [[repartition, before]] = repartitionOf(purged);
  // Never beyond what the group committed.
  const admin = harness.kafka.admin();
  await admin.connect();
  const [committed] = await admin.fetchOffsets({ groupId: "wordcount", topics: [repartition] });
  await admin.disconnect();
  for (const { partition, offset } of committed.partitions) assert.ok(before[partition][0] <= Number(offset), `partition ${partition}: purged to ${before[partition][0]}, committed ${offset}`);

  await app.stop();
  await app.restart();
  await eventually(() => app.state === "RUNNING", { what: "RUNNING again", timeoutMs: 15_000 });
  await feed(harness, app, 8, 4);
  const total = await counts(app);
  assert.is(total.shared, 12);
  for (let i = 0; i < 12; i++) assert.is(total[`w${i}`], 1, `w${i}`);
  assert.not.ok(context.warnings.some((line) => line.includes("out of range")), context.warnings.join(""));
});

test("nothing is purged before repartition.purge.interval.ms has passed, however often the application commits", async (context) => {
  const { harness } = context;
  const app = await startWordcount(context, 600_000);
  await feed(harness, app, 0, 4);
  const admin = harness.kafka.admin();
  await admin.connect();
  const starts = await logStarts(harness);
  const [[repartition, partitions]] = repartitionOf(starts);
  await eventually(async () => {
    const [committed] = await admin.fetchOffsets({ groupId: "wordcount", topics: [repartition] });
    return committed.partitions.reduce((sum, { offset }) => sum + Math.max(0, Number(offset)), 0) === 8;
  }, { what: "the repartition records committed" });
  await admin.disconnect();
  assert.equal(partitions.map(([low]) => low), [0, 0]);
  assert.equal((await logStarts(harness))[repartition].map(([low]) => low), [0, 0]);
});

test.run();
