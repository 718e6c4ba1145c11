/**
 * Sluice's group consumer as a static member (KIP-345, `group.instance.id`) of a group on Apache Kafka 4.4 (the
 * reference jars): stopped and started again within the session timeout, it gets its partitions back in the same
 * generation, and the other member is never asked to rejoin.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { GroupConsumer } from "../../../providers/kafka-client";
import { eventually } from "../../helpers/eventually";
import { startKafkaCluster, type KafkaCluster } from "../../helpers/kafka-cluster";
import { roundRobinAssignor } from "../../providers/kafka-client/round-robin-assignor";

const test = suite("Sluice's static group member on Apache Kafka");
const TOPIC = "static-events";
const GROUP = "static-sluice";
const PARTITIONS = 4;

let cluster: KafkaCluster;
const members: Member[] = [];

test.before(async () => {
  cluster = await startKafkaCluster({ nodes: 1, serverProperties: { "group.initial.rebalance.delay.ms": 0 } });
});
test.after(async () => {
  await Promise.all(members.map((member) => member.consumer.stop()));
  await cluster?.close();
});

interface Member {
  consumer: GroupConsumer;
  assignments: Record<string, number[]>[];
  rebalances: number;
  read: number;
  failures: unknown[];
}

async function startMember(instance: string): Promise<Member> {
  const member: Member = { consumer: undefined as unknown as GroupConsumer, assignments: [], rebalances: 0, read: 0, failures: [] };
  member.consumer = new GroupConsumer(
    // Kafka's group.min.session.timeout.ms is 6 s; 30 s leaves a restart on this busy machine plenty of room.
    { bootstrapServers: cluster.bootstrap().split(","), clientId: instance, groupId: GROUP, groupInstanceId: instance, assignor: roundRobinAssignor([TOPIC]), sessionTimeoutMs: 30_000, heartbeatIntervalMs: 500, maxWaitMs: 100 },
    {
      rebalancing: () => void member.rebalances++,
      assigned: async (partitions) => void member.assignments.push(partitions),
      batch: async (batch) => {
        while (batch.records.read() !== undefined) member.read++;
      },
      failed: (error) => void member.failures.push(error),
    },
  );
  members.push(member);
  await member.consumer.start();
  return member;
}

const partitionsOf = (member: Member) => member.assignments.at(-1)?.[TOPIC] ?? [];

test("a static member restarted within the session timeout rejoins in the same generation, with no rebalance of the other", async () => {
  const admin = cluster.kafkajs().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }], waitForLeaders: true });
  await admin.disconnect();
  const a = await startMember("sluice-a");
  await eventually(() => partitionsOf(a).length === PARTITIONS, { timeoutMs: 60_000, what: "the first member owning every partition" });
  const b = await startMember("sluice-b");
  await eventually(() => partitionsOf(a).length === 2 && partitionsOf(b).length === 2 && !a.consumer.rejoinPending, { timeoutMs: 60_000, what: "the partitions split two by two" });
  const generation = b.consumer.generationId;
  const [aPartitions, bAssignments] = [partitionsOf(a), b.assignments.length];

  await a.consumer.stop();
  members.splice(members.indexOf(a), 1);
  const described = await cluster.tool("kafka-consumer-groups", ["--describe", "--group", GROUP, "--members"]);
  assert.match(described, "sluice-a", "the stopped static member is still in the group");

  const restarted = await startMember("sluice-a");
  await eventually(() => restarted.assignments.length > 0, { timeoutMs: 60_000, what: "the restarted member assigned" });
  assert.equal(partitionsOf(restarted), aPartitions);
  assert.is(restarted.consumer.generationId, generation, "the group's generation did not change");
  const producer = cluster.kafkajs().producer();
  await producer.connect();
  await producer.send({ topic: TOPIC, acks: -1, messages: Array.from({ length: 40 }, (_, i) => ({ value: `v${i}`, partition: i % PARTITIONS })) });
  await producer.disconnect();
  await eventually(() => restarted.read + b.read === 40, { timeoutMs: 30_000, what: "every record read by the two members" });
  assert.is(restarted.read, 20);
  assert.is(b.consumer.generationId, generation);
  assert.is(b.rebalances, 0, "the other member was never asked to rejoin");
  assert.is(b.assignments.length, bAssignments);
  assert.equal([...restarted.failures, ...b.failures], []);
});

test.run();
