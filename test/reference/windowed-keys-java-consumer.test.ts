/**
 * Sluice's windowed output read by a Java consumer with Kafka Streams' WindowedSerdes (#35 point 2): a windowed count
 * and a session count on the embedded broker write their Windowed keys in Kafka Streams' byte layouts (time windows:
 * key + start; sessions: key + end + start), each key's windows on the partition of its inner key's bytes, as Kafka
 * Streams' WindowedStreamPartitioner puts them; the Java reader decodes every key to the window Sluice meant.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { partitionOfKey } from "../../providers/kafka-client";
import { SessionWindows, TimeWindows } from "../../providers/streams";
import { eventually } from "../helpers/eventually";
import { JavaProcesses, REFERENCE_PACKAGE } from "../helpers/reference-java";
import { startHarness, type Harness } from "../providers/streams/streams-harness";

const READER = `${REFERENCE_PACKAGE}.clients.TopicReader`;
const PARTITIONS = 3;

const test = suite("reference: a Java consumer with WindowedSerdes reads Sluice's windowed output");
let harness: Harness | undefined;
const java = new JavaProcesses();

test.after(async () => {
  await java.stopAll();
  await harness?.close();
});

interface JavaRecord {
  partition: number;
  offset: number;
  key: { key: string; start: number; end: number };
  value: number | null;
}

async function readWithJava(topic: string, keys: string, count: number): Promise<JavaRecord[]> {
  return eventually(
    async () => {
      const run = await java.run(READER, [harness!.bootstrap[0], topic, "long", "read_uncommitted", keys]);
      assert.is(run.code, 0, run.stderr);
      const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
      const records = lines.filter((line) => line.event === "record") as unknown as JavaRecord[];
      return records.length >= count ? records : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500, what: `${count} records of ${topic} read by Java` },
  );
}

/** The records of each key in offset order, the partition each key's records share checked on the way. */
function byKey(records: JavaRecord[]): Record<string, [number, number, number | null][]> {
  const keys: Record<string, [number, number, number | null][]> = {};
  const sorted = [...records].sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  for (const { partition, key, value } of sorted) {
    assert.is(partition, partitionOfKey(Buffer.from(key.key), PARTITIONS), `the windows of ${key.key} on its own key's partition`);
    (keys[key.key] ??= []).push([key.start, key.end, value]);
  }
  return keys;
}

test("time-windowed and session-windowed keys decode to Sluice's windows, on their inner key's partition", async () => {
  harness = await startHarness();
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({
    topics: ["clicks", "tumbling-counts", "session-counts"].map((topic) => ({ topic, numPartitions: topic === "clicks" ? 1 : PARTITIONS })),
    waitForLeaders: true,
  });
  await admin.disconnect();
  const runtime = harness.runtime([
    {
      name: "windowed-output",
      version: "1",
      config: { "application.id": "windowed-output", "statestore.cache.max.bytes": 0 },
      topology: (builder) => {
        const clicks = builder.stream<string, string>("clicks").groupByKey();
        clicks.windowedBy(TimeWindows.ofSizeWithNoGrace(10_000)).count({ storeName: "tumbling" }).toStream().to("tumbling-counts", { valueSerde: "long" });
        clicks.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(5_000)).count({ storeName: "sessions" }).toStream().to("session-counts", { valueSerde: "long" });
      },
    },
  ]);
  await runtime.start();
  const clicks: [string, number][] = [["ann", 1_000], ["bob", 2_000], ["ann", 4_000], ["cy", 9_000], ["ann", 12_000], ["bob", 13_000]];
  await harness.producer.send({ topic: "clicks", messages: clicks.map(([key, timestamp]) => ({ key, value: "x", timestamp: String(timestamp) })) });

  assert.equal(byKey(await readWithJava("tumbling-counts", "time-windowed:10000", clicks.length)), {
    ann: [[0, 10_000, 1], [0, 10_000, 2], [10_000, 20_000, 1]],
    bob: [[0, 10_000, 1], [10_000, 20_000, 1]],
    cy: [[0, 10_000, 1]],
  });
  // ann's second click extends her session: the old one is deleted (a null value), the longer one written.
  assert.equal(byKey(await readWithJava("session-counts", "session-windowed", clicks.length + 1)), {
    ann: [[1_000, 1_000, 1], [1_000, 1_000, null], [1_000, 4_000, 2], [12_000, 12_000, 1]],
    bob: [[2_000, 2_000, 1], [13_000, 13_000, 1]],
    cy: [[9_000, 9_000, 1]],
  });
});

test.run();
