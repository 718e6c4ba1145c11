import type { EachMessagePayload } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { startTestBroker, type TestBroker } from "./broker-test-kit";

const test = suite<{ broker: TestBroker }>("broker: kafkajs produce and consume");

test.before.each(async (context) => {
  context.broker = await startTestBroker();
});

test.after.each(async ({ broker }) => {
  await broker.close();
});

interface Received {
  partition: number;
  offset: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

function collect(into: Received[]) {
  return async ({ partition, message }: EachMessagePayload) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = String(value);
    into.push({ partition, offset: message.offset, key: String(message.key), value: String(message.value), headers });
  };
}

test("records produced to several partitions come back with their keys and headers, in order per partition", async ({ broker }) => {
  const kafka = broker.kafka();
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "orders", numPartitions: 3 }] });
  await admin.disconnect();

  const producer = kafka.producer();
  await producer.connect();
  const sent = Array.from({ length: 60 }, (_, i) => ({ partition: i % 3, key: `k${i}`, value: `v${i}`, headers: { seq: String(i) } }));
  for (let i = 0; i < sent.length; i += 10) {
    await producer.send({ topic: "orders", acks: -1, messages: sent.slice(i, i + 10) });
  }
  await producer.disconnect();

  const received: Received[] = [];
  const consumer = kafka.consumer({ groupId: "order-readers", maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: "orders", fromBeginning: true });
  await consumer.run({ eachMessage: collect(received) });
  await eventually(() => received.length >= sent.length, { what: "all 60 records" });
  await consumer.disconnect();

  assert.is(received.length, sent.length);
  for (const partition of [0, 1, 2]) {
    const expected = sent.filter((record) => record.partition === partition);
    const got = received.filter((record) => record.partition === partition);
    assert.equal(
      got.map(({ key, value, headers, offset }) => ({ key, value, headers, offset })),
      expected.map(({ key, value, headers }, i) => ({ key, value, headers, offset: String(i) })),
    );
  }
});

test("a new consumer of the group resumes after the offsets the previous one committed", async ({ broker }) => {
  const kafka = broker.kafka();
  const producer = kafka.producer();
  await producer.connect();
  // Auto-created through Metadata with the default partition count.
  await producer.send({ topic: "events", messages: Array.from({ length: 5 }, (_, i) => ({ value: `first-${i}` })) });

  const firstRun: Received[] = [];
  const first = kafka.consumer({ groupId: "resumers", maxWaitTimeInMs: 100 });
  await first.connect();
  await first.subscribe({ topic: "events", fromBeginning: true });
  await first.run({ eachMessage: collect(firstRun) });
  await eventually(() => firstRun.length === 5, { what: "the first five records" });
  await first.disconnect();

  await producer.send({ topic: "events", messages: Array.from({ length: 3 }, (_, i) => ({ value: `second-${i}` })) });
  await producer.disconnect();

  const secondRun: Received[] = [];
  const second = kafka.consumer({ groupId: "resumers", maxWaitTimeInMs: 100 });
  await second.connect();
  await second.subscribe({ topic: "events", fromBeginning: true });
  await second.run({ eachMessage: collect(secondRun) });
  await eventually(() => secondRun.length >= 3, { what: "the three new records" });
  await second.disconnect();

  assert.equal(secondRun.map((record) => record.value), ["second-0", "second-1", "second-2"]);
  assert.equal(secondRun.map((record) => record.offset), ["5", "6", "7"]);
});

test("a long-polling consumer receives a record produced while it waits", async ({ broker }) => {
  const kafka = broker.kafka();
  const received: Received[] = [];
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "quiet", numPartitions: 1 }] });
  await admin.disconnect();
  const consumer = kafka.consumer({ groupId: "pollers", maxWaitTimeInMs: 4_000 });
  await consumer.connect();
  await consumer.subscribe({ topic: "quiet", fromBeginning: true });
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => {
    joined = true;
  });
  await consumer.run({ eachMessage: collect(received) });
  await eventually(() => joined, { what: "the consumer to join" });

  const producer = kafka.producer();
  await producer.connect();
  const sentAt = Date.now();
  await producer.send({ topic: "quiet", messages: [{ value: "wake up" }] });
  await producer.disconnect();
  await eventually(() => received.length === 1, { what: "the record", timeoutMs: 3_000 });
  // Well before the 4 s max wait: the append woke the waiting fetch.
  assert.ok(Date.now() - sentAt < 3_000);
  assert.is(received[0].value, "wake up");
  await consumer.disconnect();
});

test.run();
