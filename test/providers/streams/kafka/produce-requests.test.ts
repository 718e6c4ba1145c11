import { suite } from "uvu";
import * as assert from "uvu/assert";
import { partitionForKey } from "../../../../providers/streams/engine/key-partitioner";
import { ProduceRequestBuilder, type OutgoingRecord } from "../../../../providers/streams/kafka/produce-requests";
import { firstApplication, originStamp } from "../../../../providers/streams/kafka/repartition-origin";

const test = suite("produce requests and repartition origins");

const record = (topic: string, i: number, partition?: number): OutgoingRecord => ({ topic, partition, key: Buffer.from(`k${i}`), value: Buffer.from(String(i)), timestamp: 1_000 + i });

test("requests hold at most perPartition messages of a partition and perRequest in all, each partition in order", () => {
  const builder = new ProduceRequestBuilder((topic) => (topic === "out" ? 3 : undefined), { perPartition: 4, perRequest: 6 });
  const records = [...Array.from({ length: 10 }, (_, i) => record("log", i, 1)), ...Array.from({ length: 9 }, (_, i) => record("out", i))];
  const requests = builder.build(records);
  const seen = new Map<string, string[]>();
  for (const request of requests) {
    const total = request.topicMessages.reduce((sum, entry) => sum + entry.messages.length, 0);
    assert.ok(total <= 6, `request of ${total}`);
    assert.is(request.slices.reduce((sum, slice) => sum + slice.count, 0), total);
    for (const { topic, messages } of request.topicMessages) {
      const perPartition = new Map<number, number>();
      for (const message of messages) {
        perPartition.set(message.partition!, (perPartition.get(message.partition!) ?? 0) + 1);
        const id = `${topic}:${message.partition}`;
        seen.set(id, [...(seen.get(id) ?? []), String(message.value)]);
        assert.is(message.timestamp, String(1_000 + Number(String(message.value))));
      }
      for (const count of perPartition.values()) assert.ok(count <= 4);
    }
  }
  assert.equal(seen.get("log:1"), Array.from({ length: 10 }, (_, i) => String(i)));
  for (let i = 0; i < 9; i++) {
    const partition = partitionForKey("out", Buffer.from(`k${i}`), 3);
    assert.ok(seen.get(`out:${partition}`)!.includes(String(i)), `k${i} in out:${partition}`);
  }
  const outOrder = [0, 1, 2].flatMap((partition) => seen.get(`out:${partition}`) ?? []);
  assert.is(outOrder.length, 9);
});

test("null keys go round-robin over the topic's partitions", () => {
  const builder = new ProduceRequestBuilder(() => 2);
  const [request] = builder.build([0, 1, 2, 3].map((i) => ({ topic: "t", key: null, value: Buffer.from(String(i)), timestamp: 0 })));
  assert.equal(request.topicMessages[0].messages.map((message) => message.partition).sort(), [0, 0, 1, 1]);
});

test("a re-sent origin at or below the last applied one of its partition is skipped; other partitions are independent", () => {
  const positions: Record<string, string> = { "words:0": "10" };
  assert.ok(firstApplication(originStamp("words", 0, 5, 0), positions));
  assert.ok(firstApplication(originStamp("words", 0, 5, 1), positions));
  assert.not.ok(firstApplication(originStamp("words", 0, 5, 1), positions));
  assert.not.ok(firstApplication(originStamp("words", 0, 4, 9), positions));
  assert.ok(firstApplication(originStamp("words", 1, 0, 0), positions));
  assert.ok(firstApplication(originStamp("words", 0, 6, 0), positions));
  assert.equal(positions, { "words:0": "10", "origin:words:0": "6.0", "origin:words:1": "0.0" });
});

test.run();
