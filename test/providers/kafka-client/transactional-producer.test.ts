/**
 * Sluice's transactional producer and read_committed fetcher against the embedded broker: commits are read, aborts
 * are skipped, markers stay hidden, a read stops at an open transaction, a new producer of the same transactional
 * id fences the old one, a silent producer's transaction is aborted at its timeout, and offsets go with their
 * transaction. (The same client against Apache Kafka 4.4 is in test/reference/transactions.)
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { RecordProducer, TransactionalProducer, TransactionError, type TransactionalProducerOptions } from "../../../providers/kafka-client";
import { eventually } from "../../helpers/eventually";
import { readToEnd, valuesOf } from "../../helpers/read-to-end";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";

interface Context {
  broker: TestBroker;
  producers: { close(): Promise<void> }[];
}

const test = suite<Context>("kafka client: transactional producer");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ autoCreateTopics: false, transactionTimeoutCheckIntervalMs: 50 });
  context.producers = [];
});

test.after.each(async ({ broker, producers }) => {
  await Promise.all(producers.map((producer) => producer.close()));
  await broker.close();
});

async function createTopic(broker: TestBroker, topic: string, numPartitions: number): Promise<void> {
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions }] });
  await admin.disconnect();
}

function transactional(context: Context, transactionalId: string, options: Partial<TransactionalProducerOptions> = {}): TransactionalProducer {
  const producer = new TransactionalProducer({ bootstrapServers: [context.broker.bootstrap], clientId: transactionalId, transactionalId, retryBackoffMs: 20, ...options });
  context.producers.push(producer);
  return producer;
}

const records = (...values: string[]) => values.map((value) => ({ key: null, value, timestamp: Date.now() }));

/** Sends `values` to each partition in one transaction and ends it. */
async function transaction(producer: TransactionalProducer, topic: string, partitions: number[], values: string[], commit: boolean): Promise<void> {
  producer.beginTransaction();
  await producer.send(partitions.map((partition) => ({ topic, partition, records: records(...values.map((value) => `${value}@${partition}`)) })));
  if (commit) await producer.commitTransaction();
  else await producer.abortTransaction();
}

async function rejection(promise: Promise<unknown>): Promise<TransactionError> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, TransactionError);
    return error as TransactionError;
  }
  throw new Error("expected the call to fail");
}

test("committed transactions are read read_committed, aborted ones skipped, and the markers are read by no one", async (context) => {
  await createTopic(context.broker, "orders", 2);
  const producer = transactional(context, "orders-writer");
  await producer.initTransactions();
  await transaction(producer, "orders", [0, 1], ["a", "b"], true);
  await transaction(producer, "orders", [0, 1], ["x", "y"], false);
  await transaction(producer, "orders", [0], ["c"], true);

  const committed = await readToEnd(context.broker.bootstrap, "orders", [0, 1], "read_committed");
  assert.equal(valuesOf(committed), ["a@0", "b@0", "c@0", "a@1", "b@1"]);
  // Each partition ends past its markers: records and a marker per transaction, and partition 1 had no third.
  assert.equal(committed.ends, { 0: 8, 1: 6 });
  const everything = await readToEnd(context.broker.bootstrap, "orders", [0, 1], "read_uncommitted");
  assert.equal(valuesOf(everything), ["a@0", "b@0", "x@0", "y@0", "c@0", "a@1", "b@1", "x@1", "y@1"]);
  assert.equal(committed.records.map(({ offset }) => offset), [0, 1, 6, 0, 1]);
});

test("a read_committed read stops at the first record of an open transaction, and goes on once it commits", async (context) => {
  await createTopic(context.broker, "ledger", 1);
  const first = transactional(context, "ledger-first");
  const second = transactional(context, "ledger-second");
  await first.initTransactions();
  await second.initTransactions();
  await transaction(first, "ledger", [0], ["before"], true);
  second.beginTransaction();
  await second.send([{ topic: "ledger", partition: 0, records: records("open-1", "open-2") }]);
  const plain = new RecordProducer({ bootstrapServers: [context.broker.bootstrap], clientId: "ledger-plain" });
  context.producers.push(plain);
  await plain.send([{ topic: "ledger", partition: 0, records: records("after") }]);

  const whileOpen = await readToEnd(context.broker.bootstrap, "ledger", [0], "read_committed");
  assert.equal(valuesOf(whileOpen), ["before@0"]);
  assert.equal(whileOpen.ends, { 0: 2 }, "the last stable offset: the open transaction's first record");
  assert.equal(valuesOf(await readToEnd(context.broker.bootstrap, "ledger", [0], "read_uncommitted")), ["before@0", "open-1", "open-2", "after"]);

  await second.commitTransaction();
  assert.equal(valuesOf(await readToEnd(context.broker.bootstrap, "ledger", [0], "read_committed")), ["before@0", "open-1", "open-2", "after"]);
});

test("a new producer with the same transactional id fences the old one and aborts its open transaction", async (context) => {
  await createTopic(context.broker, "fenced", 1);
  const zombie = transactional(context, "the-writer");
  await zombie.initTransactions();
  zombie.beginTransaction();
  await zombie.send([{ topic: "fenced", partition: 0, records: records("zombie-1") }]);

  const successor = transactional(context, "the-writer");
  await successor.initTransactions();
  assert.ok(successor.producerIdentity!.producerEpoch > zombie.producerIdentity!.producerEpoch, "the successor's epoch is newer");

  const sent = await rejection(zombie.send([{ topic: "fenced", partition: 0, records: records("zombie-2") }]));
  assert.is(sent.kind, "fatal");
  assert.ok(sent.fenced, sent.message);
  const committed = await rejection(zombie.commitTransaction());
  assert.is(committed, sent, "every later call throws the fatal error again");

  await transaction(successor, "fenced", [0], ["successor"], true);
  assert.equal(valuesOf(await readToEnd(context.broker.bootstrap, "fenced", [0], "read_committed")), ["successor@0"]);
});

test("a producer that stays silent past its transaction timeout has its transaction aborted and is fenced", async (context) => {
  await createTopic(context.broker, "slow", 1);
  const silent = transactional(context, "slow-writer", { transactionTimeoutMs: 300 });
  await silent.initTransactions();
  silent.beginTransaction();
  await silent.send([{ topic: "slow", partition: 0, records: records("late-1", "late-2") }]);
  // The abort marker moves the last stable offset past the transaction (2 records and the marker).
  await eventually(async () => (await readToEnd(context.broker.bootstrap, "slow", [0], "read_committed")).ends[0] === 3, { what: "the timed-out transaction's abort" });

  const error = await rejection(silent.commitTransaction());
  assert.is(error.kind, "fatal");
  assert.ok(error.fenced, error.message);
  assert.equal(valuesOf(await readToEnd(context.broker.bootstrap, "slow", [0], "read_committed")), []);
});

test("offsets sent to a transaction are the group's once it commits, and not when it aborts", async (context) => {
  await createTopic(context.broker, "input", 2);
  await createTopic(context.broker, "output", 1);
  const producer = transactional(context, "copier");
  await producer.initTransactions();
  const group = { groupId: "copiers", generationId: -1, memberId: "", groupInstanceId: null };
  const admin = context.broker.kafka().admin();
  await admin.connect();
  const committedOffsets = async () =>
    (await admin.fetchOffsets({ groupId: "copiers", topics: ["input"] }))[0].partitions.map(({ partition, offset }) => [partition, offset]).sort();

  producer.beginTransaction();
  await producer.send([{ topic: "output", partition: 0, records: records("copied") }]);
  await producer.sendOffsetsToTransaction([{ topic: "input", partition: 0, offset: 10 }, { topic: "input", partition: 1, offset: 4 }], group);
  assert.equal(await committedOffsets(), [[0, "-1"], [1, "-1"]], "not before the commit");
  await producer.commitTransaction();
  assert.equal(await committedOffsets(), [[0, "10"], [1, "4"]]);

  producer.beginTransaction();
  await producer.sendOffsetsToTransaction([{ topic: "input", partition: 0, offset: 20 }], group);
  await producer.abortTransaction();
  assert.equal(await committedOffsets(), [[0, "10"], [1, "4"]]);
  await admin.disconnect();
});

test("offsets of a group member whose generation is over are refused: the transaction is abortable, and the next one goes on", async (context) => {
  await createTopic(context.broker, "members-in", 1);
  await createTopic(context.broker, "members-out", 1);
  const consumer = context.broker.kafka().consumer({ groupId: "members", sessionTimeout: 10_000 });
  const joined = new Promise((resolve) => consumer.on(consumer.events.GROUP_JOIN, resolve));
  await consumer.connect();
  await consumer.subscribe({ topic: "members-in" });
  await consumer.run({ eachMessage: async () => undefined });
  await joined;
  const producer = transactional(context, "member-writer");
  await producer.initTransactions();
  producer.beginTransaction();
  await producer.send([{ topic: "members-out", partition: 0, records: records("lost") }]);
  // The group has a live member; a commit in the name of another, gone, member is a zombie's.
  const zombie = { groupId: "members", generationId: 1, memberId: "zombie-member", groupInstanceId: null };
  const error = await rejection(producer.sendOffsetsToTransaction([{ topic: "members-in", partition: 0, offset: 1 }], zombie));
  assert.is(error.kind, "abortable");
  assert.is(error.operation, "sendOffsetsToTransaction");
  const commit = await rejection(producer.commitTransaction());
  assert.is(commit.kind, "abortable", "only an abort is left");
  await producer.abortTransaction();
  await transaction(producer, "members-out", [0], ["kept"], true);
  assert.equal(valuesOf(await readToEnd(context.broker.bootstrap, "members-out", [0], "read_committed")), ["kept@0"]);
  await consumer.disconnect();
});

test("calls out of order are refused without touching the transaction", async (context) => {
  await createTopic(context.broker, "ordered", 1);
  const producer = transactional(context, "ordered-writer");
  const beforeInit = await rejection(producer.send([{ topic: "ordered", partition: 0, records: records("early") }]));
  assert.match(beforeInit.message, /initTransactions/);
  await producer.initTransactions();
  const notBegun = await rejection(producer.commitTransaction());
  assert.match(notBegun.message, /beginTransaction/);
  producer.beginTransaction();
  // A transaction that added nothing ends without its coordinator.
  await producer.commitTransaction();
  await transaction(producer, "ordered", [0], ["v"], true);
  assert.equal(valuesOf(await readToEnd(context.broker.bootstrap, "ordered", [0], "read_committed")), ["v@0"]);
});

test.run();
