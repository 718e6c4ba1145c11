/**
 * Sluice's group consumer with `group.protocol=consumer` (KIP-848) on Apache Kafka 4.4 (the reference jars): the
 * coordinator assigns; members share a topic's partitions, a third member joining and one leaving move partitions
 * without losing a record or giving a partition to two members at once, the offsets end committed, and Kafka's tools
 * show a group of type CONSUMER.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { GroupConsumer } from "../../../providers/kafka-client";
import { eventually } from "../../helpers/eventually";
import { startKafkaCluster, type KafkaCluster } from "../../helpers/kafka-cluster";
import { roundRobinAssignor } from "../../providers/kafka-client/round-robin-assignor";

const test = suite("Sluice's consumer protocol group member on Apache Kafka");
const TOPIC = "kip848-events";
const GROUP = "kip848-sluice";
const PARTITIONS = 6;

let cluster: KafkaCluster;
const members: Member[] = [];
/** The member that owns each partition now, by partition: a second owner at once is a failure. */
const owners = new Map<number, string>();
const doubleOwned: string[] = [];
const seen = new Set<string>();

test.before(async () => {
  // Heartbeats every 500 ms (Kafka's default and minimum are 5 s) keep each reassignment's round trips short.
  cluster = await startKafkaCluster({
    nodes: 1,
    serverProperties: { "group.consumer.min.heartbeat.interval.ms": 500, "group.consumer.heartbeat.interval.ms": 500 },
  });
});
test.after(async () => {
  await Promise.all(members.map((member) => member.consumer.stop()));
  await cluster?.close();
});

interface Member {
  name: string;
  consumer: GroupConsumer;
  partitions: number[];
  failures: unknown[];
}

async function startMember(name: string): Promise<Member> {
  const member: Member = { name, consumer: undefined as unknown as GroupConsumer, partitions: [], failures: [] };
  member.consumer = new GroupConsumer(
    {
      bootstrapServers: cluster.bootstrap().split(","),
      clientId: name,
      groupId: GROUP,
      groupProtocol: "consumer",
      groupRemoteAssignor: "uniform",
      // The coordinator assigns: only the subscription's topics count.
      assignor: roundRobinAssignor([TOPIC]),
      maxWaitMs: 100,
    },
    {
      rebalancing: () => undefined,
      // Called before the member gives its partitions up: when it takes a new assignment, and when it stops.
      revoking: async () => {
        for (const partition of member.partitions) if (owners.get(partition) === name) owners.delete(partition);
        member.partitions = [];
      },
      assigned: async (partitions) => {
        member.partitions = partitions[TOPIC] ?? [];
        for (const partition of member.partitions) {
          const owner = owners.get(partition);
          if (owner !== undefined && owner !== name) doubleOwned.push(`partition ${partition}: ${owner} and ${name}`);
          owners.set(partition, name);
        }
      },
      batch: async (batch) => {
        for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) seen.add(record.value!.toString());
      },
      failed: (error) => void member.failures.push(error),
    },
  );
  members.push(member);
  await member.consumer.start();
  return member;
}

async function produce(from: number, count: number): Promise<void> {
  const producer = cluster.kafkajs().producer();
  await producer.connect();
  await producer.send({ topic: TOPIC, acks: -1, messages: Array.from({ length: count }, (_, i) => ({ value: `v${from + i}`, partition: (from + i) % PARTITIONS })) });
  await producer.disconnect();
}

const counts = (...list: Member[]) => list.map((member) => member.partitions.length).join("/");
/** The members' partition counts are `expected` and none has a new assignment to take; else throws what they are. */
function split(expected: string, ...list: Member[]): true {
  const now = counts(...list);
  if (now !== expected || list.some((member) => member.consumer.rejoinPending)) throw new Error(`the split is ${now}`);
  return true;
}
const everyRecordSeen = (count: number) => Array.from({ length: count }, (_, i) => `v${i}`).every((value) => seen.has(value));

test("members share partitions, a third joins and one leaves without a record lost or a partition owned twice; the group is of type CONSUMER", async () => {
  const admin = cluster.kafkajs().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }], waitForLeaders: true });
  await produce(0, 60);

  const a = await startMember("sluice-a");
  const b = await startMember("sluice-b");
  await eventually(() => split("3/3", a, b), { timeoutMs: 60_000, what: "the partitions split 3/3" });
  await eventually(() => everyRecordSeen(60), { timeoutMs: 30_000, what: "the first records read" });

  const c = await startMember("sluice-c");
  await produce(60, 60);
  await eventually(() => split("2/2/2", a, b, c), { timeoutMs: 60_000, what: "the partitions split 2/2/2" });
  await produce(120, 60);
  await eventually(() => everyRecordSeen(180), { timeoutMs: 30_000, what: "the records produced while the third member joined" });

  const described = await cluster.tool("kafka-consumer-groups", ["--describe", "--group", GROUP, "--members"]);
  for (const member of [a, b, c]) assert.match(described, member.consumer.memberId);
  const listed = await cluster.tool("kafka-consumer-groups", ["--list", "--type", "consumer"]);
  assert.match(listed, new RegExp(`^${GROUP}\\s+Consumer`, "im"), `kafka-consumer-groups --list names the group's type Consumer:\n${listed}`);

  await b.consumer.stop();
  members.splice(members.indexOf(b), 1);
  await produce(180, 60);
  await eventually(() => split("3/3", a, c), { timeoutMs: 60_000, what: "the leaving member's partitions reassigned" });
  await eventually(() => everyRecordSeen(240), { timeoutMs: 30_000, what: "the records produced after a member left" });
  assert.equal([...a.partitions, ...c.partitions].sort(), [0, 1, 2, 3, 4, 5]);

  // Every partition's offset ends committed at its end: 40 records each.
  await eventually(
    async () => {
      const [{ partitions }] = await admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
      return partitions.every(({ offset }) => offset === "40");
    },
    { timeoutMs: 30_000, what: "every partition's offset committed at its end" },
  );
  await admin.disconnect();
  assert.equal(doubleOwned, []);
  assert.equal([...a.failures, ...b.failures, ...c.failures], []);
});

test.run();
