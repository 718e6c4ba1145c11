import * as fs from "node:fs";
import * as path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { partitionOfKey } from "../../../providers/kafka-client";
import { longSerde, sessionWindowedSerde, stringSerde, timeWindowedSerde, TimeWindows, TopologyTestDriver } from "../../../providers/streams";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import { REPO_ROOT } from "../../helpers/sluice";

const test = suite("windowed serdes: Kafka Streams' byte layouts");

/** The windowed keys of a golden's outputs: the bytes Kafka Streams wrote, and what they mean. */
function recordedKeys(scenario: string): { keyBytes: string; key: { key: unknown; start: number; end: number } }[] {
  const golden = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "reference", "scenarios", scenario, "golden.json"), "utf8"));
  return golden.outputs;
}

test("a time-windowed key is the key's bytes and the window start; Sluice reads Kafka Streams' keys and writes them alike", () => {
  for (const [scenario, serde] of [["tumbling-count", timeWindowedSerde(stringSerde, 10)], ["windowed-aggregate-long-keys", timeWindowedSerde(longSerde, 20)]] as const) {
    for (const { keyBytes, key } of recordedKeys(scenario)) {
      const read = (serde as ReturnType<typeof timeWindowedSerde<unknown>>).deserialize(Buffer.from(keyBytes, "hex"));
      assert.equal(read, { key: key.key, windowStart: key.start, windowEnd: key.end });
      assert.is((serde as ReturnType<typeof timeWindowedSerde<unknown>>).serialize(read).toString("hex"), keyBytes);
    }
  }
});

test("a session-windowed key is the key's bytes, the session end, then its start", () => {
  const serde = sessionWindowedSerde(stringSerde);
  const keys = recordedKeys("session-merge");
  assert.ok(keys.some(({ key }) => key.start !== key.end), "the golden has a session longer than one record");
  for (const { keyBytes, key } of keys) {
    const read = serde.deserialize(Buffer.from(keyBytes, "hex"));
    assert.equal(read, { key: key.key, windowStart: key.start, windowEnd: key.end });
    assert.is(serde.serialize(read).toString("hex"), keyBytes);
  }
});

test("bytes too short for a windowed key are an error naming the serde", () => {
  assert.throws(() => timeWindowedSerde(stringSerde, 10).deserialize(Buffer.alloc(7)), /time-windowed\(string\): expected at least 8 bytes, got 7/);
  assert.throws(() => sessionWindowedSerde(stringSerde).deserialize(Buffer.alloc(15)), /session-windowed\(string\): expected at least 16 bytes, got 15/);
});

test("a windowed serde passes the topic and the preparations on to the serde it wraps (a registry serde's subject and schemas), the window taken off", async () => {
  const calls: unknown[][] = [];
  const fetching: Serde<string> = {
    name: "fetching",
    serialize: (value, topic) => (calls.push(["serialize", value, topic]), Buffer.from(value)),
    deserialize: (bytes) => bytes.toString(),
    prepareSerialize: async (topic) => void calls.push(["prepareSerialize", topic]),
    prepareDeserialize: (bytes, start, end) => (calls.push(["prepareDeserialize", bytes.subarray(start, end).toString()]), Promise.resolve()),
  };
  for (const serde of [timeWindowedSerde(fetching, 10), sessionWindowedSerde(fetching)]) {
    calls.length = 0;
    await serde.prepareSerialize!("out");
    const bytes = Buffer.concat([Buffer.from("before"), serde.serialize({ key: "k", windowStart: 0, windowEnd: 10 }, "out"), Buffer.from("after")]);
    await serde.prepareDeserialize!(bytes, "before".length, bytes.length - "after".length);
    assert.equal(calls, [["prepareSerialize", "out"], ["serialize", "k", "out"], ["prepareDeserialize", "k"]], serde.name);
    assert.is(serde.prepareDeserialize!(bytes, 0, 7), undefined, "too short for a window: deserialize says so");
  }
  assert.is(timeWindowedSerde(stringSerde, 10).prepareDeserialize, undefined, "nothing to await around a serde that fetches nothing");
  assert.is(sessionWindowedSerde(stringSerde).prepareSerialize, undefined);
});

test("a sink writes every window of a key to the partition of the key's own bytes, as Kafka Streams' WindowedStreamPartitioner", async () => {
  const seen: [string, number][] = [];
  const driver = await TopologyTestDriver.create(
    (builder) => {
      builder.stream<string, string>("in").groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count({ storeName: "counts" }).toStream().to("windowed", { valueSerde: "long" });
      builder.stream<Buffer, Buffer>("windowed", { keySerde: "bytes", valueSerde: "bytes" }).process(() => {
        let context!: { recordMetadata(): { partition: number } };
        return {
          init: (ctx) => void (context = ctx),
          process: (record) => seen.push([record.key.subarray(0, record.key.length - 8).toString(), context.recordMetadata().partition]),
        };
      });
    },
    { partitions: 4 },
  );
  const keys = ["ann", "bob", "cy", "dee", "eve", "flo"];
  await driver.pipeInput("in", [0, 10, 20].flatMap((timestamp) => keys.map((key) => ({ key, value: "x", timestamp }))));
  assert.is(seen.length, keys.length * 3);
  for (const [key, partition] of seen) assert.is(partition, partitionOfKey(Buffer.from(key), 4), `the windows of ${key}`);
  // The inner key's partition, not the windowed bytes': with these keys at least one window would land elsewhere.
  assert.ok(seen.some(([key, partition]) => partition !== partitionOfKey(timeWindowedSerde(stringSerde, 10).serialize({ key, windowStart: 0, windowEnd: 10 }), 4)));
  await driver.close();
});

test.run();
