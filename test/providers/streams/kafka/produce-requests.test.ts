import { suite } from "uvu";
import * as assert from "uvu/assert";
import { partitionOfKey } from "../../../../providers/kafka-client";
import { ProduceRequestBuilder, type OutgoingRecord } from "../../../../providers/streams/kafka/produce-requests";
import { originStamp } from "../../../../providers/streams/kafka/repartition-origin";
import { TaskPositions } from "../../../../providers/streams/kafka/task-positions";

const test = suite("produce requests and repartition origins");

const record = (topic: string, i: number, partition?: number): OutgoingRecord => ({ topic, partition, key: Buffer.from(`k${i}`), value: Buffer.from(String(i)), timestamp: 1_000 + i });

test("records are grouped per topic-partition in emit order: explicit partitions kept, keys by murmur2", () => {
  const builder = new ProduceRequestBuilder((topic) => (topic === "out" ? 3 : undefined));
  const records = [...Array.from({ length: 10 }, (_, i) => record("log", i, 1)), ...Array.from({ length: 9 }, (_, i) => record("out", i))];
  const grouped = builder.build(records);
  assert.equal(
    grouped.map(({ topic, partition }) => `${topic}:${partition}`),
    ["log:1", ...[0, 1, 2].filter((partition) => grouped.some((entry) => entry.topic === "out" && entry.partition === partition)).map((p) => `out:${p}`)],
  );
  assert.equal(grouped[0].records, records.slice(0, 10));
  for (let i = 0; i < 9; i++) {
    const partition = partitionOfKey(Buffer.from(`k${i}`), 3);
    const target = grouped.find((entry) => entry.topic === "out" && entry.partition === partition)!;
    assert.ok(target.records.includes(records[10 + i]), `k${i} in out:${partition}`);
  }
  const outValues = grouped.filter((entry) => entry.topic === "out").flatMap((entry) => entry.records.map((r) => Number(String(r.value))));
  assert.is(outValues.length, 9);
  for (const entry of grouped) {
    const values = entry.records.map((r) => Number(String(r.value)));
    assert.equal(values, [...values].sort((a, b) => a - b));
  }
});

test("a repartition record carries its origin as a header; other records have none", () => {
  const builder = new ProduceRequestBuilder(() => 1);
  const [grouped] = builder.build([
    { topic: "t-repartition", key: Buffer.from("k"), value: Buffer.from("v"), timestamp: 5, origin: originStamp("in", 2, 7, 0) },
    { topic: "t-repartition", key: Buffer.from("k"), value: Buffer.from("w"), timestamp: 6 },
  ]);
  assert.equal(grouped.records, [
    { key: Buffer.from("k"), value: Buffer.from("v"), timestamp: 5, headers: { "sluice.origin": "7.0@in:2" } },
    { topic: "t-repartition", key: Buffer.from("k"), value: Buffer.from("w"), timestamp: 6 },
  ]);
});

test("null keys go round-robin over the topic's partitions", () => {
  const builder = new ProduceRequestBuilder(() => 2);
  const grouped = builder.build([0, 1, 2, 3].map((i) => ({ topic: "t", key: null, value: Buffer.from(String(i)), timestamp: 0 })));
  assert.equal(
    grouped.map(({ partition, records }) => [partition, records.map((r) => String(r.value))]),
    [
      [0, ["0", "2"]],
      [1, ["1", "3"]],
    ],
  );
});

test("a re-sent origin at or below the last applied one of its partition is skipped; other partitions are independent", () => {
  const positions = TaskPositions.decode({ "words:0": "10" });
  const marks = positions.origins;
  const admit = (partition: number, offset: number, rank: number) => marks.admit(Buffer.from(originStamp("words", partition, offset, rank)));
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
  assert.not.ok(marks.admit(Buffer.from(originStamp("words", 3, 7, 2))));
  assert.not.ok(marks.admit(Buffer.from(originStamp("words", 3, 6, 9))));
  assert.ok(marks.admit(Buffer.from(originStamp("words", 3, 7, 3))));
  for (const stamp of ["", "12", "12.", "12.3", ".3@words:3", "5.@words:3"]) assert.ok(marks.admit(Buffer.from(stamp)), `'${stamp}' admitted`);
});

test.run();
