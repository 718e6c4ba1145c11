import { suite } from "uvu";
import * as assert from "uvu/assert";
import { partitionOfKey } from "../../../../providers/kafka-client";
import { encodeRecordBatch, FetchedRecords } from "../../../../providers/kafka-protocol";
import { ProduceRequestBuilder, type OutgoingRecord } from "../../../../providers/streams/kafka/produce-requests";
import { ORIGIN_HEADER, OriginStamps } from "../../../../providers/streams/kafka/repartition-origin";
import { TaskPositions } from "../../../../providers/streams/kafka/task-positions";

const test = suite("produce requests and repartition origins");

/** The origin header's bytes as the encoder writes them. */
function originStamp(topic: string, partition: number, offset: number, rank: number): Buffer {
  const stamp = new OriginStamps(partition).stamp(topic, offset, rank);
  const bytes = Buffer.alloc(stamp.valueBytes);
  assert.is(stamp.writeValue(bytes, 0), bytes.length);
  return bytes;
}

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

test("a repartition record's origin stamp is written as its header, `<offset>.<rank>@<topic>:<partition>`, after any others", () => {
  const builder = new ProduceRequestBuilder(() => 1);
  const origins = new OriginStamps(2);
  const stamps = [origins.stamp("in", 7, 0), origins.stamp("in", 7, 10), origins.stamp("other-in", 0, 123), origins.stamp("in", 2 ** 40, 0)];
  const [grouped] = builder.build([
    ...stamps.map((stamp, i) => ({ topic: "t-repartition", key: Buffer.from("k"), value: Buffer.from(`v${i}`), timestamp: 5, stamp })),
    { topic: "t-repartition", key: Buffer.from("k"), value: Buffer.from("w"), timestamp: 6, headers: { other: "header" }, stamp: origins.stamp("in", 8, 0) },
    { topic: "t-repartition", key: Buffer.from("k"), value: Buffer.from("x"), timestamp: 6 },
  ]);
  const read = new FetchedRecords(encodeRecordBatch(grouped.records), 0, "t-repartition-0");
  const headers: unknown[] = [];
  for (let record = read.read(); record !== undefined; record = read.read()) {
    headers.push(record.headers === undefined ? undefined : Object.fromEntries(Object.entries(record.headers).map(([name, value]) => [name, String(value)])));
  }
  assert.equal(headers, [
    { [ORIGIN_HEADER]: "7.0@in:2" },
    { [ORIGIN_HEADER]: "7.10@in:2" },
    { [ORIGIN_HEADER]: "0.123@other-in:2" },
    { [ORIGIN_HEADER]: `${2 ** 40}.0@in:2` },
    { other: "header", [ORIGIN_HEADER]: "8.0@in:2" },
    undefined,
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
