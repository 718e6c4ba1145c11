/**
 * OffsetDelete (kafka-consumer-groups --delete-offsets, AdminClient.deleteConsumerGroupOffsets) at the wire: an empty
 * group loses the offsets asked for, a live group keeps those of the topics it subscribes to, and the file store
 * remembers what was deleted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ErrorCode, OffsetCommit, OffsetDelete, OffsetFetch } from "../../../providers/kafka-protocol";
import { eventually } from "../../helpers/eventually";
import { startTestBroker, type TestBroker } from "./broker-test-kit";
import { RawKafkaClient } from "./raw-kafka-client";

interface Context {
  broker: TestBroker;
  client: RawKafkaClient;
  dataDir: string;
}

const test = suite<Context>("broker: OffsetDelete");

async function start(context: Context): Promise<void> {
  context.broker = await startTestBroker({ storage: "file", dataDir: context.dataDir });
  context.client = await RawKafkaClient.connect(context.broker.broker.port);
}

test.before.each(async (context) => {
  context.dataDir = mkdtempSync(path.join(os.tmpdir(), "sluice-offset-delete-"));
  await start(context);
  const admin = context.broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "orders", numPartitions: 2 }, { topic: "refunds", numPartitions: 1 }] });
});

test.after.each(async ({ broker, client, dataDir }) => {
  client.close();
  await broker.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A commit without a member, as kafka-consumer-groups --reset-offsets makes: the group exists, empty. */
async function commit(client: RawKafkaClient, groupId: string, offsets: Record<string, Record<number, number>>): Promise<void> {
  const answer = await client.request(OffsetCommit, 2, {
    groupId,
    memberId: "",
    groupInstanceId: null,
    topics: Object.entries(offsets).map(([name, partitions]) => ({
      name,
      partitions: Object.entries(partitions).map(([partition, offset]) => ({ partitionIndex: Number(partition), committedOffset: BigInt(offset), committedMetadata: null })),
    })),
  });
  assert.ok(answer.topics.every(({ partitions }) => partitions.every(({ errorCode }) => errorCode === ErrorCode.NONE)));
}

/** Every offset the group has committed, "topic-partition" → offset. */
async function committed(client: RawKafkaClient, groupId: string): Promise<Record<string, number>> {
  const answer = await client.request(OffsetFetch, 2, { groupId, topics: null });
  return Object.fromEntries(answer.topics.flatMap(({ name, partitions }) => partitions.map(({ partitionIndex, committedOffset }) => [`${name}-${partitionIndex}`, Number(committedOffset)])));
}

async function deleteOffsets(client: RawKafkaClient, groupId: string, topics: Record<string, number[]>) {
  const answer = await client.request(OffsetDelete, 0, {
    groupId,
    topics: Object.entries(topics).map(([name, partitions]) => ({ name, partitions: partitions.map((partitionIndex) => ({ partitionIndex })) })),
  });
  return {
    errorCode: answer.errorCode,
    partitions: Object.fromEntries(answer.topics.flatMap(({ name, partitions }) => partitions.map(({ partitionIndex, errorCode }) => [`${name}-${partitionIndex}`, errorCode]))),
  };
}

test("an empty group loses the offsets asked for and keeps the others, and a restart of the file store keeps them deleted", async (context) => {
  await commit(context.client, "ledger", { orders: { 0: 5, 1: 7 }, refunds: { 0: 2 } });
  assert.equal(await deleteOffsets(context.client, "ledger", { orders: [1], refunds: [0] }), {
    errorCode: ErrorCode.NONE,
    partitions: { "orders-1": ErrorCode.NONE, "refunds-0": ErrorCode.NONE },
  });
  assert.equal(await committed(context.client, "ledger"), { "orders-0": 5 });

  context.client.close();
  await context.broker.close();
  await start(context);
  assert.equal(await committed(context.client, "ledger"), { "orders-0": 5 });
  // Known only by its offsets after the restart, the group is empty: its last offset can go too.
  assert.equal((await deleteOffsets(context.client, "ledger", { orders: [0] })).partitions, { "orders-0": ErrorCode.NONE });
  assert.equal(await committed(context.client, "ledger"), {});
});

test("a group with members keeps the offsets of the topics they subscribe to: GROUP_SUBSCRIBED_TO_TOPIC; others go", async (context) => {
  await commit(context.client, "live", { refunds: { 0: 1 } });
  const consumer = context.broker.kafka().consumer({ groupId: "live" });
  await consumer.connect();
  await consumer.subscribe({ topic: "orders", fromBeginning: true });
  await consumer.run({ eachMessage: async () => undefined });
  const admin = context.broker.kafka().admin();
  await admin.connect();
  await eventually(async () => (await admin.describeGroups(["live"])).groups[0].state === "Stable", { what: "the group to be stable" });

  assert.equal(await deleteOffsets(context.client, "live", { orders: [0, 1], refunds: [0], missing: [0] }), {
    errorCode: ErrorCode.NONE,
    partitions: { "orders-0": ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC, "orders-1": ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC, "refunds-0": ErrorCode.NONE, "missing-0": ErrorCode.UNKNOWN_TOPIC_OR_PARTITION },
  });
  assert.not.ok("refunds-0" in (await committed(context.client, "live")));
});

test("a group nobody knows is GROUP_ID_NOT_FOUND, an empty group id INVALID_GROUP_ID", async ({ client }) => {
  assert.equal(await deleteOffsets(client, "nobody", { orders: [0] }), { errorCode: ErrorCode.GROUP_ID_NOT_FOUND, partitions: {} });
  assert.equal(await deleteOffsets(client, "", { orders: [0] }), { errorCode: ErrorCode.INVALID_GROUP_ID, partitions: {} });
});

test.run();
