import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { ApplicationHandle } from "../../../kernel/contracts/streams/runtime";
import { eventually } from "../../helpers/eventually";
import { startHarness, type Harness } from "./streams-harness";

const test = suite<{ harness: Harness }>("streams runtime: consumer settings");

test.before(async (context) => {
  context.harness = await startHarness();
});

test.after(async ({ harness }) => {
  await harness.close();
});

const BATCHES = 20;

const upperCase = (applicationId: string, config: Record<string, number> = {}) => ({
  name: applicationId,
  version: "1",
  config: { "application.id": applicationId, ...config },
  topology: (builder: StreamsBuilder) => {
    builder.stream<string, string>("settings-in").mapValues((value) => value.toUpperCase()).to(`${applicationId}-out`);
  },
});

function threadMetric(application: ApplicationHandle, name: string): number {
  const thread = application.metrics().find((group) => group.name === "stream-thread-metrics");
  return Number(thread?.metrics.find((metric) => metric.name === name)?.value ?? 0);
}

test("max.partition.fetch.bytes bounds the polled batch: one record batch per poll when it is tiny, all at once by default", async ({ harness }) => {
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "settings-in", numPartitions: 1 }] });
  await admin.disconnect();
  // Each send is one record batch; a fetch returns at least one whole batch whatever its byte bound.
  for (let batch = 0; batch < BATCHES; batch++) {
    await harness.producer.send({ topic: "settings-in", messages: Array.from({ length: 10 }, (_, i) => ({ value: `record ${batch}.${i} `.padEnd(100, "x") })) });
  }
  const runtime = harness.runtime([upperCase("tiny-fetches", { "max.partition.fetch.bytes": 1 }), upperCase("default-fetches")]);
  await runtime.start();
  const tiny = runtime.application("tiny-fetches")!;
  const whole = runtime.application("default-fetches")!;
  // The group commit follows the processing of a batch: the commits are counted once the last one is done.
  const committedAll = async (application: ApplicationHandle) =>
    (await application.offsets()).consumers[0]?.positions.find((position) => position.topic === "settings-in")?.committedOffset === BATCHES * 10;
  await eventually(async () => (await committedAll(tiny)) && (await committedAll(whole)), {
    timeoutMs: 15_000,
    what: "both applications committing all 200 records",
  });
  assert.is(threadMetric(tiny, "process-total"), BATCHES * 10);
  assert.is(threadMetric(whole, "process-total"), BATCHES * 10);
  assert.ok(threadMetric(tiny, "commit-total") >= BATCHES, `one commit per record batch, got ${threadMetric(tiny, "commit-total")}`);
  assert.ok(threadMetric(whole, "commit-total") < BATCHES / 2, `the default bound takes the batches together, got ${threadMetric(whole, "commit-total")} commits`);
  const out = await harness.readTopic("tiny-fetches-out", (records) => records.length >= BATCHES * 10);
  assert.is(out.length, BATCHES * 10);
  assert.ok(out.every((record) => record.value!.toString().startsWith("RECORD ")));
});

test.run();
