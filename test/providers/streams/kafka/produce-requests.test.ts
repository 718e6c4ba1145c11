import { suite } from "uvu";
import * as assert from "uvu/assert";
import { partitionOfKey } from "../../../../providers/kafka-client";
import { POSITIONS_HEADER } from "../../../../providers/streams/kafka/changelog/commit-marker";
import { ProduceRequestBuilder, type OutgoingRecord } from "../../../../providers/streams/kafka/processing/produce-requests";
import { ORIGIN_HEADER, OriginStamps } from "../../../../providers/streams/engine/origin-stamps";
import { TaskPositions } from "../../../../providers/streams/kafka/changelog/task-positions";
import { recordsOf } from "../../../helpers/record-batches";

const test = suite("produce requests and repartition origins");

/** The origin header's bytes as the encoder writes them. */
function originStamp(topic: string, partition: number, offset: number, rank: number): Buffer {
  const stamp = new OriginStamps(partition).stamp(topic, offset, rank);
  const bytes = Buffer.alloc(stamp.valueBytes);
  assert.is(stamp.writeValue(bytes, 0), bytes.length);
  return bytes;
}

const record = (topic: string, i: number, partition?: number): OutgoingRecord => ({ topic, partition, key: `k${i}`, value: String(i), timestamp: 1_000 + i });

/** What `builder` took, as `topic:partition` → the values written there, in order. */
function valuesTaken(builder: ProduceRequestBuilder): [string, (string | null)[]][] {
  return builder.take().map(({ topic, partition, batches }) => [`${topic}:${partition}`, recordsOf(batches).map(({ value }) => value)]);
}

test("records are written per topic-partition in emit order: explicit partitions kept, keys by murmur2", () => {
  const builder = new ProduceRequestBuilder((topic) => (topic === "out" ? 3 : undefined));
  for (let i = 0; i < 10; i++) builder.add(record("log", i, 1));
  for (let i = 0; i < 9; i++) builder.add(record("out", i));
  builder.add(record("log", 10, 1));
  const expected = new Map<string, string[]>([["log:1", [...Array.from({ length: 10 }, (_, i) => String(i)), "10"]]]);
  for (let i = 0; i < 9; i++) {
    const target = `out:${partitionOfKey(Buffer.from(`k${i}`), 3)}`;
    expected.set(target, [...(expected.get(target) ?? []), String(i)]);
  }
  const byPartition = [...expected].sort(([a], [b]) => (a.startsWith("log") ? -1 : b.startsWith("log") ? 1 : a.localeCompare(b)));
  assert.equal(valuesTaken(builder), byPartition);
  assert.equal(builder.take(), [], "a take after a take has nothing");
});

test("each take has only what was written since the last one, and asks the partition counts again", () => {
  let partitions = 1;
  const builder = new ProduceRequestBuilder(() => partitions);
  builder.add(record("t", 1));
  assert.equal(valuesTaken(builder), [["t:0", ["1"]]]);
  partitions = 64;
  for (let i = 2; i < 40; i++) builder.add(record("t", i));
  const taken = valuesTaken(builder);
  assert.ok(taken.length > 1, "the keys spread over the new partitions");
  assert.equal(taken.flatMap(([, values]) => values).sort(), Array.from({ length: 38 }, (_, i) => String(i + 2)).sort());
  for (const [target, values] of taken) {
    for (const value of values) assert.is(target, `t:${partitionOfKey(Buffer.from(`k${value}`), 64)}`);
  }
});

test("a repartition record's origin stamp is written as its header, `<offset>.<rank>@<topic>:<partition>`, after any others", () => {
  const builder = new ProduceRequestBuilder(() => 1);
  const origins = new OriginStamps(2);
  const stamps = [origins.stamp("in", 7, 0), origins.stamp("in", 7, 10), origins.stamp("other-in", 0, 123), origins.stamp("in", 2 ** 40, 0)];
  stamps.forEach((stamp, i) => builder.add({ topic: "t-repartition", key: Buffer.from("k"), value: Buffer.from(`v${i}`), timestamp: 5, stamp }));
  builder.add({ topic: "t-repartition", key: Buffer.from("k"), value: Buffer.from("w"), timestamp: 6, headers: { other: "header" }, stamp: origins.stamp("in", 8, 0) });
  builder.add({ topic: "t-repartition", key: Buffer.from("k"), value: Buffer.from("x"), timestamp: 6 });
  const [taken] = builder.take();
  assert.equal(
    recordsOf(taken.batches).map(({ headers }) => headers),
    [
      { [ORIGIN_HEADER]: "7.0@in:2" },
      { [ORIGIN_HEADER]: "7.10@in:2" },
      { [ORIGIN_HEADER]: "0.123@other-in:2" },
      { [ORIGIN_HEADER]: `${2 ** 40}.0@in:2` },
      { other: "header", [ORIGIN_HEADER]: "8.0@in:2" },
      undefined,
    ],
  );
});

test("null keys go round-robin over the topic's partitions", () => {
  const builder = new ProduceRequestBuilder(() => 2);
  for (let i = 0; i < 4; i++) builder.add({ topic: "t", key: null, value: String(i), timestamp: 0 });
  assert.equal(valuesTaken(builder), [
    ["t:0", ["0", "2"]],
    ["t:1", ["1", "3"]],
  ]);
});

test("a commit marker carries its positions in the positions header", () => {
  const builder = new ProduceRequestBuilder(() => 1);
  builder.add({ topic: "c", partition: 0, key: "marker", value: null, timestamp: 9, positions: '{"in:0":"5"}' });
  const [taken] = builder.take();
  assert.equal(recordsOf(taken.batches), [{ key: "marker", value: null, timestamp: 9, headers: { [POSITIONS_HEADER]: '{"in:0":"5"}' } }]);
});

test("a re-sent origin at or below the last applied one of its partition is skipped; other partitions are independent", () => {
  const positions = TaskPositions.decode({ "words:0": "10" });
  const marks = positions.origins;
  const admit = (partition: number, offset: number, rank: number) => marks.admit(originStamp("words", partition, offset, rank));
  assert.ok(admit(0, 5, 0));
  assert.ok(admit(0, 5, 1));
  assert.not.ok(admit(0, 5, 1));
  assert.not.ok(admit(0, 4, 9));
  assert.ok(admit(1, 0, 0));
  assert.ok(admit(0, 6, 0));
  assert.ok(admit(0, 2 ** 40, 12));
  assert.equal(positions.encode(), { "words:0": "10", "origin:words:0": `${2 ** 40}.12`, "origin:words:1": "0.0" });
});

test("marks checkpointed earlier hold after a restart, and stamps that are not origins are admitted", () => {
  const marks = TaskPositions.decode({ "origin:words:3": "7.2" }).origins;
  assert.not.ok(marks.admit(originStamp("words", 3, 7, 2)));
  assert.not.ok(marks.admit(originStamp("words", 3, 6, 9)));
  assert.ok(marks.admit(originStamp("words", 3, 7, 3)));
  for (const stamp of ["", "12", "12.", "12.3", ".3@words:3", "5.@words:3"]) assert.ok(marks.admit(Buffer.from(stamp)), `'${stamp}' admitted`);
});

test.run();
