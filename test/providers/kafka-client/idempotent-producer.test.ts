/**
 * The idempotent producer against the embedded broker: a produce whose connection is cut after the broker stored
 * its batch, before the answer arrived, is retried and stored once (without idempotence the same cut stores it
 * twice); kafkajs's and librdkafka's (kcat's) idempotent producers work too.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { KafkaProxy } from "../../helpers/kafka-proxy";
import { Produce } from "../../../providers/kafka-protocol";
import { RecordProducer } from "../../../providers/kafka-client";
import { runKcat, startTestBroker, type TestBroker } from "../broker/broker-test-kit";
import { readWithKcat } from "./produced-records";

const test = suite<{ broker: TestBroker; proxy: KafkaProxy; producers: RecordProducer[] }>("kafka client: idempotent producer");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ autoCreateTopics: false });
  context.proxy = await KafkaProxy.start(context.broker.broker.host, context.broker.broker.port);
  context.producers = [];
});

test.after.each(async ({ broker, proxy, producers }) => {
  await Promise.all(producers.map((producer) => producer.close()));
  await proxy.close();
  await broker.close();
});

async function createTopic(broker: TestBroker, topic: string, numPartitions: number): Promise<void> {
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions }] });
  await admin.disconnect();
}

/** Sends 3 partitions × 50 records through the proxy, whose first Produce answer is cut; the values read back. */
async function sendThroughCut(context: { broker: TestBroker; proxy: KafkaProxy; producers: RecordProducer[] }, topic: string, idempotence: boolean): Promise<string[]> {
  await createTopic(context.broker, topic, 3);
  const producer = new RecordProducer({ bootstrapServers: [`${context.broker.broker.host}:${context.proxy.port}`], clientId: "idempotent-test", idempotence, retryBackoffMs: 20 });
  context.producers.push(producer);
  await producer.connect();
  context.proxy.cutAnswers(Produce.apiKey);
  const records = (partition: number) => Array.from({ length: 50 }, (_, i) => ({ key: null, value: Buffer.from(`p${partition}-${i}`), timestamp: Date.now() }));
  const offsets = await producer.send([0, 1, 2].map((partition) => ({ topic, partition, records: records(partition) })));
  assert.is(context.proxy.counts.cuts, 1);
  assert.equal(
    offsets.map(({ baseOffset, lastOffset }) => [baseOffset, lastOffset]),
    idempotence ? [[0, 49], [0, 49], [0, 49]] : offsets.map(({ baseOffset }) => [baseOffset, baseOffset + 49]),
  );
  assert.ok(offsets.every(({ producerId }) => (idempotence ? producerId >= 0n && producerId === offsets[0].producerId : producerId === -1n)), "the producer id each partition's batches carried");
  const read = await readWithKcat(context.broker, topic);
  return read.map(({ value }) => Buffer.from(value!, "hex").toString());
}

test("a produce whose answer is lost with its connection is retried and every record is stored once", async (context) => {
  const values = await sendThroughCut(context, "cut-once", true);
  assert.is(values.length, 150);
  assert.is(new Set(values).size, 150);
});

test("without idempotence the same cut stores the retried records twice (what the test above guards against)", async (context) => {
  const values = await sendThroughCut(context, "cut-twice", false);
  assert.is(values.length, 300);
  assert.is(new Set(values).size, 150);
});

test("kafkajs's idempotent producer writes to the embedded broker, and a retry of its batch is stored once", async (context) => {
  await createTopic(context.broker, "kafkajs-idempotent", 2);
  const producer = context.broker.kafka({ brokers: [`${context.broker.broker.host}:${context.proxy.port}`] }).producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  context.proxy.cutAnswers(Produce.apiKey);
  await producer.send({ topic: "kafkajs-idempotent", messages: Array.from({ length: 20 }, (_, i) => ({ value: `k${i}`, partition: i % 2 })) });
  await producer.send({ topic: "kafkajs-idempotent", messages: [{ value: "last", partition: 0 }] });
  assert.is(context.proxy.counts.cuts, 1);
  const values = (await readWithKcat(context.broker, "kafkajs-idempotent")).map(({ value }) => Buffer.from(value!, "hex").toString());
  assert.equal(values.sort(), [...Array.from({ length: 20 }, (_, i) => `k${i}`), "last"].sort());
});

test("librdkafka's idempotent producer (kcat -X enable.idempotence=true) gets a producer id and writes", async (context) => {
  await createTopic(context.broker, "kcat-idempotent", 2);
  const written = await runKcat(context.broker.bootstrap, ["-P", "-t", "kcat-idempotent", "-X", "enable.idempotence=true", "-X", "debug=eos"], "a\nb\nc\n");
  assert.is(written.code, 0, written.stderr);
  assert.match(written.stderr, /Acquired PID\{Id:\d+,Epoch:0\}/);
  const values = (await readWithKcat(context.broker, "kcat-idempotent")).map(({ value }) => Buffer.from(value!, "hex").toString());
  assert.equal(values.sort(), ["a", "b", "c"]);
});

test.run();
