/**
 * The transaction coordinator's state survives a SIGKILL of the broker: a transaction open at the kill goes on after
 * the restart and commits or aborts whole; the `__transaction_state` topic is compacted as it grows and restores the
 * transactional ids after a restart.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { DescribeTransactions, ListOffsets } from "../../../providers/kafka-protocol";
import { TransactionalProducer } from "../../../providers/kafka-client";
import { readToEnd, valuesOf } from "../../helpers/read-to-end";
import { exited, kafkaConfig, startStandaloneBroker, type StandaloneBroker } from "./broker-test-kit";
import { RawKafkaClient } from "./raw-kafka-client";

interface Context {
  dataDir: string;
  children: ChildProcess[];
  producers: TransactionalProducer[];
}

const test = suite<Context>("broker: transactions across a restart");

test.before.each(async (context) => {
  context.dataDir = await mkdtemp(join(tmpdir(), "sluice-broker-txn-"));
  context.children = [];
  context.producers = [];
});

test.after.each(async ({ dataDir, children, producers }) => {
  await Promise.all(producers.map((producer) => producer.close()));
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map(exited));
  await rm(dataDir, { recursive: true, force: true });
});

async function createTopic(broker: StandaloneBroker, topic: string): Promise<void> {
  const admin = new Kafka(kafkaConfig(broker.bootstrap)).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  await admin.disconnect();
}

async function killAndRestart(context: Context, broker: StandaloneBroker): Promise<StandaloneBroker> {
  broker.child.kill("SIGKILL");
  await exited(broker.child);
  // The same port: the producer's connections find the broker again where it was.
  return startStandaloneBroker(context.dataDir, context.children, broker.port);
}

function producerOf(context: Context, broker: StandaloneBroker, transactionalId: string): TransactionalProducer {
  const producer = new TransactionalProducer({ bootstrapServers: [broker.bootstrap], clientId: transactionalId, transactionalId, retryBackoffMs: 20 });
  context.producers.push(producer);
  return producer;
}

async function describe(broker: StandaloneBroker, transactionalId: string) {
  const client = await RawKafkaClient.connect(broker.port);
  try {
    const [state] = (await client.request(DescribeTransactions, 0, { transactionalIds: [transactionalId] })).transactionStates;
    return { state: state.transactionState, epoch: state.producerEpoch, topics: state.topics };
  } finally {
    client.close();
  }
}

const records = (...values: string[]) => values.map((value) => ({ key: null, value, timestamp: Date.now() }));

for (const commit of [true, false]) {
  test(`a transaction open when the broker is killed ${commit ? "commits" : "aborts"} whole after the restart`, async (context) => {
    let broker = await startStandaloneBroker(context.dataDir, context.children);
    await createTopic(broker, "survived");
    const producer = producerOf(context, broker, "survivor");
    await producer.initTransactions();
    producer.beginTransaction();
    await producer.send([{ topic: "survived", partition: 0, records: records("before") }]);

    broker = await killAndRestart(context, broker);
    assert.equal(await describe(broker, "survivor"), { state: "Ongoing", epoch: producer.producerIdentity!.producerEpoch, topics: [{ topic: "survived", partitions: [0] }] });
    await producer.send([{ topic: "survived", partition: 0, records: records("after") }]);
    if (commit) await producer.commitTransaction();
    else await producer.abortTransaction();

    assert.equal(valuesOf(await readToEnd(broker.bootstrap, "survived", [0], "read_committed")), commit ? ["before", "after"] : []);
    assert.equal(valuesOf(await readToEnd(broker.bootstrap, "survived", [0], "read_uncommitted")), ["before", "after"]);
    assert.is((await describe(broker, "survivor")).state, commit ? "CompleteCommit" : "CompleteAbort");
  });
}

test("the transaction log is compacted as it grows, and a restart restores the ids from what is left", async (context) => {
  let broker = await startStandaloneBroker(context.dataDir, context.children);
  await createTopic(broker, "busy-out");
  const producer = producerOf(context, broker, "busy");
  await producer.initTransactions();
  // Each transaction writes three states (Ongoing, PrepareCommit, CompleteCommit): enough for a compaction.
  for (let i = 0; i < 400; i++) {
    producer.beginTransaction();
    await producer.send([{ topic: "busy-out", partition: 0, records: records(`r${i}`) }]);
    await producer.commitTransaction();
  }
  const client = await RawKafkaClient.connect(broker.port);
  const ask = { replicaId: -1, isolationLevel: 0, topics: [{ name: "__transaction_state", partitions: [{ partitionIndex: 0, timestamp: -2n }] }] };
  const earliest = (await client.request(ListOffsets, 1, ask)).topics[0].partitions[0].offset;
  client.close();
  assert.ok(earliest > 0n, `the records before the last compaction are gone (log start ${earliest})`);
  const epoch = producer.producerIdentity!.producerEpoch;
  await producer.close();

  broker = await killAndRestart(context, broker);
  assert.equal(await describe(broker, "busy"), { state: "CompleteCommit", epoch, topics: [] });
  const successor = producerOf(context, broker, "busy");
  await successor.initTransactions();
  assert.is(successor.producerIdentity!.producerEpoch, epoch + 1, "the restored id's next epoch");
  assert.is((await readToEnd(broker.bootstrap, "busy-out", [0], "read_committed")).records.length, 400);
});

test.run();
