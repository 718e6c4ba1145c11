import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Partitioners } from "kafkajs";
import { murmur2, partitionOfKey } from "../../../providers/kafka-client";

const test = suite("kafka client: murmur2 partitioner");

test("murmur2 gives the Java client's values (Kafka's UtilsTest)", () => {
  const cases: [string, number][] = [
    ["21", -973932308],
    ["foobar", -790332482],
    ["a-little-bit-long-string", -985981536],
    ["a-little-bit-longer-string", -1486304829],
    ["lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971],
    ["abc", 479470107],
  ];
  for (const [key, hash] of cases) assert.is(murmur2(Buffer.from(key)), hash, key);
});

test("every key lands where kafkajs's default partitioner puts it", () => {
  const kafkajs = Partitioners.DefaultPartitioner();
  const partitionsOf = (count: number) => Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
  for (let i = 0; i < 5_000; i++) {
    const key = Buffer.from(Array.from({ length: i % 40 }, (_, j) => (i * 7 + j * 131) & 0xff));
    const count = 1 + (i % 17);
    assert.is(partitionOfKey(key, count), kafkajs({ topic: "t", partitionMetadata: partitionsOf(count), message: { key, value: null } }), `key ${key.toString("hex")} over ${count}`);
  }
});

test("a string key lands where its UTF-8 bytes do", () => {
  const keys = ["", "k1", "word4711", "ünïcødé", "mixed ascii then é", "😀 astral", "x".repeat(1_000), "é".repeat(400)];
  for (const key of keys) {
    for (const count of [1, 3, 12, 100]) assert.is(partitionOfKey(key, count), partitionOfKey(Buffer.from(key, "utf8"), count), `'${key.slice(0, 20)}' over ${count}`);
  }
});

test.run();
