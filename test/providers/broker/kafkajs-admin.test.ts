import type { PartitionAssigner } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { ConsumerProtocolSubscription, DataCodec, decodeAssignment, decodeSubscription, encodeAssignment } from "../../../providers/kafka-protocol";
import { startTestBroker, type TestBroker } from "./broker-test-kit";

const test = suite<{ broker: TestBroker }>("broker: kafkajs admin");

test.before.each(async (context) => {
  context.broker = await startTestBroker();
});

test.after.each(async ({ broker }) => {
  await broker.close();
});

test("topics are created, listed, described and deleted", async ({ broker }) => {
  const admin = broker.kafka().admin();
  await admin.connect();
  assert.is(await admin.createTopics({ topics: [{ topic: "alpha", numPartitions: 3 }, { topic: "beta" }] }), true);
  // Creating an existing topic is refused, as Kafka does.
  assert.is(await admin.createTopics({ topics: [{ topic: "alpha", numPartitions: 3 }] }), false);
  assert.equal((await admin.listTopics()).sort(), ["alpha", "beta"]);

  const { topics } = await admin.fetchTopicMetadata({ topics: ["alpha", "beta"] });
  assert.equal(
    topics
      .map(({ name, partitions }) => ({ name, partitions: partitions.map((p) => [p.partitionId, p.leader, p.replicas, p.isr]) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    [
      { name: "alpha", partitions: [[0, 0, [0], [0]], [1, 0, [0], [0]], [2, 0, [0], [0]]] },
      { name: "beta", partitions: [[0, 0, [0], [0]]] },
    ],
  );

  await admin.deleteTopics({ topics: ["alpha"] });
  assert.equal(await admin.listTopics(), ["beta"]);
});

test("topic offsets and a group's committed offsets are reported", async ({ broker }) => {
  const kafka = broker.kafka();
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "counted", numPartitions: 2 }] });
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic: "counted", messages: [0, 1, 2].map((i) => ({ partition: 0, value: `a${i}` })) });
  await producer.send({ topic: "counted", messages: [{ partition: 1, value: "b0" }] });

  assert.equal(
    (await admin.fetchTopicOffsets("counted")).map(({ partition, low, high, offset }) => ({ partition, low, high, offset })),
    [
      { partition: 0, low: "0", high: "3", offset: "3" },
      { partition: 1, low: "0", high: "1", offset: "1" },
    ],
  );

  await admin.setOffsets({ groupId: "auditors", topic: "counted", partitions: [{ partition: 0, offset: "2" }] });
  const [committed] = await admin.fetchOffsets({ groupId: "auditors", topics: ["counted"] });
  assert.equal(
    committed.partitions.map(({ partition, offset }) => ({ partition, offset })),
    [
      { partition: 0, offset: "2" },
      { partition: 1, offset: "-1" },
    ],
  );
});

test("describeGroups shows the members with a custom assigner's metadata and assignment byte for byte", async ({ broker }) => {
  const kafka = broker.kafka();
  const sent: { metadata?: Buffer; assignment?: Buffer } = {};
  const customAssigner: PartitionAssigner = () => ({
    name: "CustomAssigner",
    version: 3,
    async assign({ members, topics }) {
      const assignment = encodeAssignment({ [topics[0]]: [0] }, Buffer.from([0, 1, 2, 250, 255, 0]));
      sent.assignment = assignment;
      return members.map(({ memberId }) => ({ memberId, memberAssignment: assignment }));
    },
    protocol({ topics }) {
      const metadata = new DataCodec(ConsumerProtocolSubscription).encode(3, {
        topics,
        userData: Buffer.from("host-a:8080\u0000\u00ff"),
        ownedPartitions: [{ topic: topics[0], partitions: [0] }],
        generationId: 4,
        rackId: "rack-a",
      });
      sent.metadata = metadata;
      return { name: "CustomAssigner", metadata };
    },
  });
  const consumer = kafka.consumer({ groupId: "custom", partitionAssigners: [customAssigner], maxWaitTimeInMs: 100 });
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => {
    joined = true;
  });
  await consumer.connect();
  await consumer.subscribe({ topic: "assigned", fromBeginning: true });
  await consumer.run({ eachMessage: async () => undefined });
  await eventually(() => joined, { what: "the consumer to join" });

  const admin = kafka.admin();
  await admin.connect();
  const { groups } = await admin.describeGroups(["custom"]);
  assert.is(groups.length, 1);
  const [group] = groups;
  assert.is(group.state, "Stable");
  assert.is(group.protocolType, "consumer");
  assert.is(group.protocol, "CustomAssigner");
  assert.is(group.members.length, 1);
  assert.ok(group.members[0].memberMetadata.equals(sent.metadata!));
  assert.ok(group.members[0].memberAssignment.equals(sent.assignment!));
  const subscription = decodeSubscription(group.members[0].memberMetadata);
  assert.equal([...subscription.userData!], [...Buffer.from("host-a:8080\u0000\u00ff")]);
  assert.is(subscription.rackId, "rack-a");
  assert.equal(decodeAssignment(group.members[0].memberAssignment), { assigned: [0] });
});

test.run();
