/**
 * Sluice's transactional producer and read_committed fetcher against the embedded broker: the scenarios every
 * cluster must pass (transaction-scenarios; test/reference/transactions runs them against Apache Kafka 4.4), and a
 * zombie group member's offsets refused (KIP-447).
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { readToEnd, valuesOf } from "../../helpers/read-to-end";
import { rejection, transaction, transactionalProducer, TRANSACTION_SCENARIOS, type TransactionBed } from "../../helpers/transaction-scenarios";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";

interface Context extends TransactionBed {
  broker: TestBroker;
}

const test = suite<Context>("kafka client: transactional producer");

test.before.each(async (context) => {
  const broker = await startTestBroker({ autoCreateTopics: false, transactionTimeoutCheckIntervalMs: 50 });
  context.broker = broker;
  context.bootstrap = broker.bootstrap;
  context.producers = [];
  context.createTopic = async (topic, numPartitions) => {
    const admin = broker.kafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions }] });
    await admin.disconnect();
  };
});

test.after.each(async ({ broker, producers }) => {
  await Promise.all(producers.map((producer) => producer.close()));
  await broker.close();
});

for (const [name, scenario] of Object.entries(TRANSACTION_SCENARIOS)) test(name, scenario);

test("offsets of a group member that is not the group's are refused: the transaction is abortable, and the next one goes on", async (context) => {
  await context.createTopic("members-in", 1);
  await context.createTopic("members-out", 1);
  const consumer = context.broker.kafka().consumer({ groupId: "members", sessionTimeout: 10_000 });
  const joined = new Promise((resolve) => consumer.on(consumer.events.GROUP_JOIN, resolve));
  await consumer.connect();
  await consumer.subscribe({ topic: "members-in" });
  await consumer.run({ eachMessage: async () => undefined });
  await joined;
  const producer = transactionalProducer(context, "member-writer");
  await producer.initTransactions();
  producer.beginTransaction();
  await producer.send([{ topic: "members-out", partition: 0, records: [{ key: null, value: "lost", timestamp: Date.now() }] }]);
  // The group has a live member; a commit in the name of another, gone, member is a zombie's.
  const zombie = { groupId: "members", generationId: 1, memberId: "zombie-member", groupInstanceId: null };
  const error = await rejection(producer.sendOffsetsToTransaction([{ topic: "members-in", partition: 0, offset: 1 }], zombie));
  assert.is(error.kind, "abortable");
  assert.is(error.operation, "sendOffsetsToTransaction");
  assert.is((await rejection(producer.commitTransaction())).kind, "abortable", "only an abort is left");
  await producer.abortTransaction();
  await transaction(producer, "members-out", [0], ["kept"], true);
  assert.equal(valuesOf(await readToEnd(context.bootstrap, "members-out", [0], "read_committed")), ["kept@0"]);
  await consumer.disconnect();
});

test.run();
