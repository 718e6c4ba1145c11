import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startBroker } from "../../../providers/broker";
import { ProduceError, RecordProducer, type PartitionRecords, type ProducerRecord, type RecordProducerOptions } from "../../../providers/kafka-client";
import { kafkaConfig, startTestBroker, type TestBroker } from "../broker/broker-test-kit";
import { eventually } from "../../helpers/eventually";
import { silentLogger } from "../../../kernel/logger";
import { expected, readWithKafkajs, readWithKcat, type ReadRecord } from "./produced-records";

const test = suite<{ broker: TestBroker; producers: RecordProducer[] }>("kafka client: record producer");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ autoCreateTopics: false });
  context.producers = [];
});

test.after.each(async ({ broker, producers }) => {
  await Promise.all(producers.map((producer) => producer.close()));
  await broker.close();
});

function producerFor(context: { broker: TestBroker; producers: RecordProducer[] }, options: Partial<RecordProducerOptions> = {}): RecordProducer {
  const producer = new RecordProducer({ bootstrapServers: [context.broker.bootstrap], clientId: "producer-test", ...options });
  context.producers.push(producer);
  return producer;
}

async function createTopic(broker: TestBroker, topic: string, numPartitions: number): Promise<void> {
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions }] });
  await admin.disconnect();
}

const text = (value: string) => Buffer.from(value);

/** Every kind of record, printable so that kcat can show it; value lengths straddle the varint boundaries. */
function mixedRecords(partition: number): ProducerRecord[] {
  const base = 1_700_000_000_000 + partition * 1_000;
  return [
    { key: text(`key-${partition}`), value: text(`value-${partition}`), timestamp: base },
    { key: null, value: text("null key"), timestamp: base + 1 },
    { key: text("null value"), value: null, timestamp: base + 2 },
    { key: null, value: null, timestamp: base - 50 },
    { key: text(""), value: text(""), timestamp: base + 3 },
    { key: text("headers"), value: text("h"), timestamp: base + 4, headers: { origin: `7.${partition}@in:0`, bytes: text("raw") } },
    { key: text("ünï"), value: text("çødé 🙂"), timestamp: base + 5, headers: { naïve: "🙂 ünïcode", ascii: "plain" } },
    ...[63, 64, 8_191, 8_192, 300_000].map((length) => ({ key: text(`len-${length}`), value: text("x".repeat(length)), timestamp: base + length })),
    { key: text("far past"), value: text("epoch"), timestamp: 7 },
  ];
}

test("keys, null keys and values, headers, timestamps, empty and large values on many partitions read back exactly by kafkajs and kcat", async (context) => {
  await createTopic(context.broker, "mixed", 8);
  const producer = producerFor(context);
  await producer.connect();
  const partitions: PartitionRecords[] = Array.from({ length: 8 }, (_, partition) => ({ topic: "mixed", partition, records: mixedRecords(partition) }));
  const offsets = await producer.send(partitions);
  const count = mixedRecords(0).length;
  const producerId = offsets[0].producerId;
  assert.ok(producerId >= 0n, "an idempotent producer's id");
  assert.equal(
    offsets,
    partitions.map(({ partition }) => ({ topic: "mixed", partition, baseOffset: 0, lastOffset: count - 1, producerId })),
  );
  const wanted: ReadRecord[] = partitions.flatMap(({ partition, records }) => records.map((record, offset) => expected(partition, offset, record)));
  assert.equal(await readWithKafkajs(context.broker.kafka(), "mixed", wanted.length), wanted);
  assert.equal(await readWithKcat(context.broker, "mixed"), wanted);
});

test("binary keys, values and header values come back byte for byte", async (context) => {
  await createTopic(context.broker, "binary", 1);
  const producer = producerFor(context);
  const bytes = (seed: number, length: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff));
  const records = Array.from({ length: 50 }, (_, i) => ({ key: bytes(i, i), value: bytes(i + 1, 3 * i), timestamp: 1_000 + i, headers: { h: bytes(i + 2, i % 5) } }));
  await producer.send([{ topic: "binary", partition: 0, records }]);
  assert.equal(
    await readWithKafkajs(context.broker.kafka(), "binary", records.length),
    records.map((record, offset) => expected(0, offset, record)),
  );
});

test("base offsets follow on across consecutive sends, per partition", async (context) => {
  await createTopic(context.broker, "counted", 2);
  const producer = producerFor(context);
  const records = (n: number) => Array.from({ length: n }, (_, i) => ({ key: null, value: text(String(i)), timestamp: i }));
  const first = await producer.send([
    { topic: "counted", partition: 0, records: records(3) },
    { topic: "counted", partition: 1, records: records(5) },
  ]);
  const second = await producer.send([
    { topic: "counted", partition: 1, records: records(2) },
    { topic: "counted", partition: 0, records: records(4) },
  ]);
  const third = await producer.send([{ topic: "counted", partition: 0, records: [] }]);
  assert.equal(first.map(({ baseOffset, lastOffset }) => [baseOffset, lastOffset]), [[0, 2], [0, 4]]);
  assert.equal(second.map(({ baseOffset, lastOffset }) => [baseOffset, lastOffset]), [[5, 6], [3, 6]]);
  assert.equal(third, [{ topic: "counted", partition: 0, baseOffset: -1, lastOffset: -1, producerId: first[0].producerId }]);
});

test("a partition's records over 1 MiB go out as several batches and land in order, with the other partitions", async (context) => {
  await createTopic(context.broker, "large", 2);
  const producer = producerFor(context);
  const records = Array.from({ length: 300 }, (_, i) => ({ key: text(`k${i}`), value: text(`${i}:${"v".repeat(10_000)}`), timestamp: i }));
  const offsets = await producer.send([
    { topic: "large", partition: 0, records },
    { topic: "large", partition: 1, records: records.slice(0, 2) },
  ]);
  assert.equal(offsets.map(({ baseOffset, lastOffset }) => [baseOffset, lastOffset]), [[0, 299], [0, 1]]);
  const read = await readWithKafkajs(context.broker.kafka(), "large", 302);
  assert.equal(
    read.filter((record) => record.partition === 0),
    records.map((record, offset) => expected(0, offset, record)),
  );
});

test("requests cut small by their bound are all in flight together and every partition lands", async (context) => {
  await createTopic(context.broker, "spread", 20);
  const producer = producerFor(context, { maxRequestBytes: 2_000 });
  const partitions = Array.from({ length: 20 }, (_, partition) => ({
    topic: "spread",
    partition,
    records: Array.from({ length: 10 }, (_, i) => ({ key: null, value: text(`${partition}-${i}-${"p".repeat(50)}`), timestamp: i })),
  }));
  const offsets = await producer.send(partitions);
  assert.ok(offsets.every(({ baseOffset, lastOffset }) => baseOffset === 0 && lastOffset === 9));
  const read = await readWithKafkajs(context.broker.kafka(), "spread", 200);
  assert.equal(read, partitions.flatMap(({ partition, records }) => records.map((record, offset) => expected(partition, offset, record))));
});

test("an unknown topic (no auto-creation) rejects naming the topic, partition and UNKNOWN_TOPIC_OR_PARTITION after retries bounded by the delivery timeout", async (context) => {
  const producer = producerFor(context, { deliveryTimeoutMs: 500, retryBackoffMs: 10 });
  const started = Date.now();
  try {
    await producer.send([{ topic: "nowhere", partition: 3, records: [{ key: null, value: text("x"), timestamp: 0 }] }]);
    assert.unreachable("the send should have failed");
  } catch (error) {
    assert.instance(error, ProduceError);
    const failure = error as ProduceError;
    assert.is(failure.topic, "nowhere");
    assert.is(failure.partition, 3);
    assert.is(failure.errorCode, 3);
    assert.match(failure.message, /nowhere partition 3 .*UNKNOWN_TOPIC_OR_PARTITION \(3\).*after \d+ attempts in \d+ ms \(delivery timeout 500 ms\)/);
  }
  assert.ok(Date.now() - started < 5_000);
  const admin = context.broker.kafka().admin();
  await admin.connect();
  assert.not.ok((await admin.listTopics()).includes("nowhere"));
});

test("a partition past the topic's last rejects as unknown; the topic's other partitions in the same send are written", async (context) => {
  await createTopic(context.broker, "narrow", 1);
  const producer = producerFor(context, { deliveryTimeoutMs: 200, retryBackoffMs: 10 });
  const record = { key: null, value: text("x"), timestamp: 0 };
  const error = await producer.send([
    { topic: "narrow", partition: 0, records: [record] },
    { topic: "narrow", partition: 1, records: [record] },
  ]).then(
    () => null,
    (failure: Error) => failure,
  );
  assert.match(String(error?.message), /narrow partition 1 .*UNKNOWN_TOPIC_OR_PARTITION/);
  assert.equal(await readWithKafkajs(context.broker.kafka(), "narrow", 1), [expected(0, 0, record)]);
});

test("close ends a send waiting to retry: it rejects as closed instead of retrying until the delivery timeout", async (context) => {
  // A topic that never appears: the send retries, each attempt followed by a pause, for the default two minutes.
  const warnings: string[] = [];
  const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
  const producer = producerFor(context, { retryBackoffMs: 50, logger });
  const sending = producer.send([{ topic: "never-there", partition: 0, records: [{ key: null, value: text("x"), timestamp: 0 }] }]).then(
    () => null,
    (failure: Error) => failure,
  );
  await eventually(() => warnings.includes("produce retry"), { what: "a retry to be pending" });
  await producer.close();
  const error = await sending;
  assert.match(String(error?.message), /producer producer-test is closed/);
});

test("sending after close rejects, naming the producer", async (context) => {
  await createTopic(context.broker, "closing", 1);
  const producer = producerFor(context);
  await producer.send([{ topic: "closing", partition: 0, records: [{ key: null, value: text("before"), timestamp: 0 }] }]);
  await producer.close();
  const error = await producer.send([{ topic: "closing", partition: 0, records: [{ key: null, value: text("after"), timestamp: 0 }] }]).then(
    () => null,
    (failure: Error) => failure,
  );
  assert.match(String(error?.message), /producer producer-test is closed/);
});

test.run();

const restart = suite<{ dataDir: string; producers: RecordProducer[] }>("kafka client: record producer across broker restarts");

restart.before.each(async (context) => {
  context.dataDir = await mkdtemp(join(tmpdir(), "sluice-producer-"));
  context.producers = [];
});

restart.after.each(async ({ dataDir, producers }) => {
  await Promise.all(producers.map((producer) => producer.close()));
  await rm(dataDir, { recursive: true, force: true });
});

restart("the broker closing its connections mid-run: the producer reconnects and sends go on where they left off", async (context) => {
  const options = { storage: "file" as const, dataDir: context.dataDir, initialRebalanceDelayMs: 0 };
  let broker = await startBroker({ ...options, port: 0 });
  const port = broker.port;
  const bootstrap = `${broker.host}:${port}`;
  const retries: string[] = [];
  const logger = { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (message: string) => retries.push(message) };
  const producer = new RecordProducer({ bootstrapServers: [bootstrap], clientId: "restart-test", retryBackoffMs: 20, logger });
  context.producers.push(producer);
  const send = async (value: string) => (await producer.send([{ topic: "survivor", partition: 0, records: [{ key: null, value: text(value), timestamp: 0 }] }])).map(({ producerId, ...landed }) => landed);
  const landed = (offset: number) => [{ topic: "survivor", partition: 0, baseOffset: offset, lastOffset: offset }];
  try {
    const admin = new Kafka(kafkaConfig(bootstrap)).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: "survivor", numPartitions: 1 }] });
    await admin.disconnect();
    assert.equal(await send("a"), landed(0));

    await broker.close();
    broker = await startBroker({ ...options, port });
    assert.equal(await send("b"), landed(1));

    await broker.close();
    const whileDown = send("c");
    await eventually(() => retries.includes("produce retry"), { what: "a retry while the broker is down" });
    broker = await startBroker({ ...options, port });
    assert.equal(await whileDown, landed(2));
  } finally {
    await broker.close();
  }
});

restart.run();
