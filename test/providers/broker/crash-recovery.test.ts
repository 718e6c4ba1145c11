import type { ChildProcess } from "node:child_process";
import { appendFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { exited, kafkaConfig, startStandaloneBroker } from "./broker-test-kit";

const test = suite<{ dataDir: string; children: ChildProcess[] }>("broker: crash recovery");

test.before.each(async (context) => {
  context.dataDir = await mkdtemp(join(tmpdir(), "sluice-broker-crash-"));
  context.children = [];
});

test.after.each(async ({ dataDir, children }) => {
  for (const child of children) child.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

async function readAll(bootstrap: string, topic: string): Promise<{ values: string[]; high: Map<number, bigint> }> {
  const kafka = new Kafka(kafkaConfig(bootstrap));
  const admin = kafka.admin();
  await admin.connect();
  const high = new Map((await admin.fetchTopicOffsets(topic)).map(({ partition, high }) => [partition, BigInt(high)]));
  await admin.disconnect();
  const values: string[] = [];
  const next = new Map<number, bigint>();
  const consumer = kafka.consumer({ groupId: `reader-${Date.now()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      values.push(String(message.value));
      next.set(partition, BigInt(message.offset) + 1n);
    },
  });
  await eventually(() => [...high].every(([partition, end]) => end === 0n || next.get(partition) === end), { what: "every record up to the high watermarks" });
  await consumer.disconnect();
  return { values, high };
}

test("every acknowledged record survives SIGKILL during produce, and a torn tail is cut off", async (context) => {
  const first = await startStandaloneBroker(context.dataDir, context.children);
  const kafka = new Kafka(kafkaConfig(first.bootstrap, { retry: { retries: 0 } }));
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "durable", numPartitions: 2 }] });
  await admin.disconnect();

  const producer = kafka.producer();
  await producer.connect();
  const acknowledged: string[] = [];
  const attempted = new Set<string>();
  let sequence = 0;
  const send = async () => {
    const values = Array.from({ length: 5 }, () => `record-${sequence++}`);
    values.forEach((value) => attempted.add(value));
    await producer.send({ topic: "durable", acks: -1, messages: values.map((value, i) => ({ partition: i % 2, value })) });
    acknowledged.push(...values);
  };
  while (acknowledged.length < 200) await send();
  const inFlight = Array.from({ length: 10 }, () => send());
  first.child.kill("SIGKILL");
  await Promise.allSettled(inFlight);
  await exited(first.child);
  await producer.disconnect().catch(() => undefined);

  // A torn write at the end of one partition's active segment: a batch header promising more than is there.
  const partitionDir = join(context.dataDir, "durable-0");
  const segments = (await readdir(partitionDir)).filter((name) => name.endsWith(".log")).sort();
  const torn = Buffer.alloc(40, 0xab);
  torn.writeBigInt64BE(999n, 0);
  torn.writeInt32BE(500, 8);
  await appendFile(join(partitionDir, segments[segments.length - 1]), torn);

  const second = await startStandaloneBroker(context.dataDir, context.children);
  const { values, high } = await readAll(second.bootstrap, "durable");
  assert.is(new Set(values).size, values.length, "no record is served twice");
  for (const value of values) assert.ok(attempted.has(value), `served ${value}, which was never produced`);
  const served = new Set(values);
  const missing = acknowledged.filter((value) => !served.has(value));
  assert.equal(missing, [], "every acknowledged record is served");

  // The log goes on right after its last whole batch.
  const again = new Kafka(kafkaConfig(second.bootstrap)).producer();
  await again.connect();
  const [result] = await again.send({ topic: "durable", acks: -1, messages: [{ partition: 0, value: "after-restart" }] });
  await again.disconnect();
  assert.is(BigInt(result.baseOffset!), high.get(0));
});

test.run();
