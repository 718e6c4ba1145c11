/**
 * The broker's side of idempotent writes, byte for byte with a raw protocol client: InitProducerId hands out
 * distinct ids, a batch sent again is acknowledged with its first offset and stored once, a gap in the sequence is
 * OUT_OF_ORDER_SEQUENCE_NUMBER, an older epoch INVALID_PRODUCER_EPOCH, and the file store rebuilds what it knows of
 * the producers from its log when it is opened again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ChunkedBytes, encodeRecordBatches, ErrorCode, InitProducerId, Produce, type ProducerStamp } from "../../../providers/kafka-protocol";
import { PartitionFetcher } from "../../../providers/kafka-client";
import { startTestBroker, type TestBroker } from "./broker-test-kit";
import { RawKafkaClient } from "./raw-kafka-client";

const test = suite<{ broker: TestBroker; dataDir: string; client: RawKafkaClient }>("broker: idempotent producers");

const TOPIC = "idempotent";
const fileBroker = (dataDir: string) => startTestBroker({ storage: "file", dataDir });

test.before.each(async (context) => {
  context.dataDir = mkdtempSync(path.join(os.tmpdir(), "sluice-idempotent-"));
  context.broker = await fileBroker(context.dataDir);
  const admin = context.broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 1 }] });
  context.client = await RawKafkaClient.connect(context.broker.broker.port);
});

test.after.each(async ({ broker, dataDir, client }) => {
  client.close();
  await broker.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function initProducerId(client: RawKafkaClient, version = 4): Promise<{ producerId: bigint; producerEpoch: number }> {
  const answer = await client.request(InitProducerId, version, { transactionalId: null, transactionTimeoutMs: 60_000 });
  assert.is(answer.errorCode, ErrorCode.NONE);
  return answer;
}

/** One batch of `count` records stamped with `stamp`, produced alone; the partition's answer. */
async function produce(client: RawKafkaClient, stamp: ProducerStamp, count: number, label = "r") {
  const records = Array.from({ length: count }, (_, i) => ({ key: null, value: Buffer.from(`${label}${stamp.baseSequence + i}`), timestamp: Date.now() }));
  const [batch] = encodeRecordBatches(records, 1 << 20, 0, stamp);
  const answer = await client.request(Produce, 8, {
    transactionalId: null,
    acks: -1,
    timeoutMs: 5_000,
    topicData: [{ name: TOPIC, partitionData: [{ index: 0, records: ChunkedBytes.of(batch.bytes) }] }],
  });
  return answer.responses[0].partitionResponses[0];
}

/** Every record value of the partition, read with Sluice's own fetcher. */
async function storedValues(broker: TestBroker): Promise<string[]> {
  const fetcher = new PartitionFetcher({ bootstrapServers: [broker.bootstrap], clientId: "idempotent-test", maxWaitMs: 10 });
  const values: string[] = [];
  try {
    for (let offset = 0, end = 1; offset < end; ) {
      const answer = await fetcher.fetch([{ topic: TOPIC, partition: 0, offset }]);
      assert.equal(answer.errors, []);
      for (const batch of answer.batches) {
        for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) values.push(record.value!.toString());
        offset = batch.nextOffset;
        end = batch.highWatermark;
      }
    }
  } finally {
    fetcher.close();
  }
  return values;
}

test("InitProducerId gives each producer its own id at epoch 0, at every version; a transactional id keeps its id at a new epoch", async ({ client }) => {
  const ids = new Set<bigint>();
  for (const version of [0, 1, 2, 3, 4, 5]) {
    const { producerId, producerEpoch } = await initProducerId(client, version);
    assert.is(producerEpoch, 0);
    assert.ok(producerId >= 0n);
    ids.add(producerId);
  }
  assert.is(ids.size, 6);
  const first = await client.request(InitProducerId, 4, { transactionalId: "tx", transactionTimeoutMs: 60_000 });
  const second = await client.request(InitProducerId, 4, { transactionalId: "tx", transactionTimeoutMs: 60_000 });
  assert.equal([first.errorCode, first.producerEpoch, second.errorCode, second.producerEpoch], [ErrorCode.NONE, 0, ErrorCode.NONE, 1]);
  assert.is(second.producerId, first.producerId);
  assert.not.ok(ids.has(first.producerId));
});

test("a batch sent again is answered with its first offset and stored once; a gap is OUT_OF_ORDER_SEQUENCE_NUMBER", async (context) => {
  const { client } = context;
  const identity = await initProducerId(client);
  const first = await produce(client, { ...identity, baseSequence: 0 }, 3);
  assert.is(first.errorCode, ErrorCode.NONE);
  assert.is(first.baseOffset, 0n);
  const second = await produce(client, { ...identity, baseSequence: 3 }, 2);
  assert.is(second.baseOffset, 3n);

  // Both retried, the older one first: each is acknowledged where it was stored.
  const againFirst = await produce(client, { ...identity, baseSequence: 0 }, 3);
  assert.equal([againFirst.errorCode, againFirst.baseOffset], [ErrorCode.NONE, 0n]);
  const againSecond = await produce(client, { ...identity, baseSequence: 3 }, 2);
  assert.equal([againSecond.errorCode, againSecond.baseOffset], [ErrorCode.NONE, 3n]);

  const gap = await produce(client, { ...identity, baseSequence: 7 }, 1);
  assert.is(gap.errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  assert.match(String(gap.errorMessage), /sequence 7.*next one here is 5/);
  const older = await produce(client, { ...identity, producerEpoch: identity.producerEpoch - 1, baseSequence: 5 }, 1);
  assert.is(older.errorCode, ErrorCode.INVALID_PRODUCER_EPOCH);

  const next = await produce(client, { ...identity, baseSequence: 5 }, 1);
  assert.equal([next.errorCode, next.baseOffset], [ErrorCode.NONE, 5n]);
  // Another producer, and a write with no producer id, are not held to this one's sequence.
  const other = await initProducerId(client);
  assert.is((await produce(client, { ...other, baseSequence: 0 }, 1, "o")).baseOffset, 6n);
  assert.is((await produce(client, { producerId: -1n, producerEpoch: -1, baseSequence: -1 }, 1, "plain")).baseOffset, 7n);
  assert.equal(await storedValues(context.broker), ["r0", "r1", "r2", "r3", "r4", "r5", "o0", "plain-1"]);
});

test("the file store rebuilds the producers' state from its log: a retry after a restart is not stored again", async (context) => {
  const identity = await initProducerId(context.client);
  assert.is((await produce(context.client, { ...identity, baseSequence: 0 }, 4)).baseOffset, 0n);
  assert.is((await produce(context.client, { ...identity, baseSequence: 4 }, 4)).baseOffset, 4n);
  context.client.close();
  await context.broker.close();
  context.broker = await fileBroker(context.dataDir);
  context.client = await RawKafkaClient.connect(context.broker.broker.port);

  const retried = await produce(context.client, { ...identity, baseSequence: 4 }, 4);
  assert.equal([retried.errorCode, retried.baseOffset], [ErrorCode.NONE, 4n]);
  const gap = await produce(context.client, { ...identity, baseSequence: 9 }, 1);
  assert.is(gap.errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  assert.is((await produce(context.client, { ...identity, baseSequence: 8 }, 1)).baseOffset, 8n);
  // Ids given before the restart are never given again.
  const after = await initProducerId(context.client);
  assert.ok(after.producerId > identity.producerId);
  assert.is((await storedValues(context.broker)).length, 9);
});

test.run();
