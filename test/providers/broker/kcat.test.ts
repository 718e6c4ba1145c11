import { suite } from "uvu";
import * as assert from "uvu/assert";
import { runKcat, startTestBroker, type TestBroker } from "./broker-test-kit";

const test = suite<{ broker: TestBroker }>("broker: librdkafka (kcat)");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ numPartitions: 3 });
});

test.after.each(async ({ broker }) => {
  await broker.close();
});

const LINES = Array.from({ length: 30 }, (_, i) => `key-${i % 5}:value-${i}`);

test("records produced with keys by kcat -P are read back in order per key by kcat -C", async ({ broker }) => {
  const produced = await runKcat(broker.bootstrap, ["-P", "-t", "keyed", "-K:"], `${LINES.join("\n")}\n`);
  assert.is(produced.code, 0, produced.stderr);
  const consumed = await runKcat(broker.bootstrap, ["-C", "-t", "keyed", "-e", "-q", "-K:", "-f", "%k:%s\n"]);
  assert.is(consumed.code, 0, consumed.stderr);
  const lines = consumed.stdout.split("\n").filter(Boolean);
  assert.equal([...lines].sort(), [...LINES].sort());
  // One key always lands in one partition, so its records come back in the order they were produced.
  for (let key = 0; key < 5; key++) {
    const ofKey = (list: string[]) => list.filter((line) => line.startsWith(`key-${key}:`));
    assert.equal(ofKey(lines), ofKey(LINES));
  }
});

test("kcat -L lists the topics and their partitions", async ({ broker }) => {
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "listed", numPartitions: 2 }] });
  const listed = await runKcat(broker.bootstrap, ["-L", "-J"]);
  assert.is(listed.code, 0, listed.stderr);
  const metadata = JSON.parse(listed.stdout) as { brokers: { id: number }[]; topics: { topic: string; partitions: { partition: number; leader: number }[] }[] };
  assert.equal(metadata.brokers.map(({ id }) => id), [0]);
  assert.equal(
    metadata.topics.map(({ topic, partitions }) => ({ topic, partitions: partitions.map(({ partition, leader }) => [partition, leader]) })),
    [{ topic: "listed", partitions: [[0, 0], [1, 0]] }],
  );
});

test("kcat -G consumes as a group member and commits its offsets", async ({ broker }) => {
  const produced = await runKcat(broker.bootstrap, ["-P", "-t", "grouped", "-K:"], `${LINES.join("\n")}\n`);
  assert.is(produced.code, 0, produced.stderr);
  const consumed = await runKcat(broker.bootstrap, ["-G", "kcat-group", "-e", "-q", "-K:", "-f", "%k:%s\n", "-X", "auto.offset.reset=earliest", "grouped"]);
  assert.is(consumed.code, 0, consumed.stderr);
  assert.equal(consumed.stdout.split("\n").filter(Boolean).sort(), [...LINES].sort());

  const admin = broker.kafka().admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets("grouped");
  const [committed] = await admin.fetchOffsets({ groupId: "kcat-group", topics: ["grouped"] });
  assert.equal(
    committed.partitions.map(({ partition, offset }) => ({ partition, offset })).sort((a, b) => a.partition - b.partition),
    offsets.map(({ partition, high }) => ({ partition, offset: high })),
  );
});

test.run();
