/**
 * Records an aggregation drops are counted in the task's dropped-records-total (#35 point 4), as Kafka Streams counts
 * them: a plain aggregation drops a record with a null key or a null value; a windowed one drops a null key only (it
 * aggregates a null value: see the golden `windowed-null-key-and-value`).
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import { TimeWindows } from "../../../providers/streams";
import { eventually } from "../../helpers/eventually";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("aggregations count the records they drop in dropped-records-total");
let harness: Harness | undefined;

test.after(async () => {
  await harness?.close();
});

async function droppedAndCounts(name: string, topology: (builder: StreamsBuilder, input: string, output: string) => void): Promise<{ dropped: number; counts: [string, bigint][] }> {
  harness ??= await startHarness();
  const input = `${name}-in`;
  const output = `${name}-out`;
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [input, output].map((topic) => ({ topic, numPartitions: 1 })), waitForLeaders: true });
  await admin.disconnect();
  const runtime = harness.runtime([
    { name, version: "1", config: { "application.id": name, "statestore.cache.max.bytes": 0 }, topology: (builder) => topology(builder, input, output) },
  ]);
  await runtime.start();
  await harness.producer.send({
    topic: input,
    messages: [
      { key: "a", value: "x", timestamp: "1" },
      { key: "a", value: null, timestamp: "2" },
      { key: null, value: "y", timestamp: "3" },
      { key: "b", value: "z", timestamp: "4" },
    ],
  });
  const app = runtime.application(name)!;
  const dropped = () =>
    app
      .metrics()
      .filter((group) => group.name === "stream-task-metrics")
      .flatMap((group) => group.metrics)
      .filter((metric) => metric.name === "dropped-records-total")
      .reduce((sum, metric) => sum + Number(metric.value), 0);
  const processed = () => Number(app.metrics().find((group) => group.name === "stream-thread-metrics")?.metrics.find((metric) => metric.name === "process-total")?.value ?? 0);
  await eventually(() => processed() >= 4, { what: "4 records processed", timeoutMs: 30_000 });
  const records = await harness.readTopic(output, (read) => read.some((record) => record.key?.startsWith("b")));
  const counts = records.map((record): [string, bigint] => [record.key!.replace(/[^a-z]/g, ""), record.value!.readBigInt64BE()]);
  return { dropped: dropped(), counts };
}

test("a plain count drops the null value and the null key, and counts both", async () => {
  const { dropped, counts } = await droppedAndCounts("plain-count", (builder, input, output) =>
    builder.stream<string, string>(input).groupByKey().count({ storeName: "counts" }).toStream().to(output, { valueSerde: "long" }),
  );
  assert.equal(counts, [["a", 1n], ["b", 1n]]);
  assert.is(dropped, 2);
});

test("a windowed count counts the null value and drops only the null key", async () => {
  const { dropped, counts } = await droppedAndCounts("windowed-count", (builder, input, output) =>
    builder
      .stream<string, string>(input)
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeWithNoGrace(100))
      .count({ storeName: "counts" })
      .toStream()
      .to(output, { valueSerde: "long" }),
  );
  assert.equal(counts, [["a", 1n], ["a", 2n], ["b", 1n]]);
  assert.is(dropped, 1);
});

test.run();
