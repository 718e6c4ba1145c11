/**
 * Sluice's group consumer with `group.protocol=consumer` (KIP-848) on Apache Kafka 4.4 (the reference jars): the
 * coordinator assigns; members share a topic's partitions, a third member joining and one leaving move partitions
 * without losing a record or giving a partition to two members at once, the offsets end committed, and Kafka's tools
 * show a group of type Consumer. A static member comes back to its partitions; a member fenced for holding partitions
 * past its rebalance timeout joins again with epoch 0; `group.remote.assignor` reaches the coordinator.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { startKafkaCluster, type KafkaCluster } from "../../helpers/kafka-cluster";
import { fencedMemberRejoins, Scenario as BedScenario, split, staticMemberComesBack, type Member } from "../../helpers/consumer-protocol-members";

const test = suite("Sluice's consumer protocol group member on Apache Kafka");

let cluster: KafkaCluster;
const scenarios: Scenario[] = [];

test.before(async () => {
  // Heartbeats every 500 ms (Kafka's default and minimum are 5 s) keep each reassignment's round trips short.
  cluster = await startKafkaCluster({
    nodes: 1,
    serverProperties: { "group.consumer.min.heartbeat.interval.ms": 500, "group.consumer.heartbeat.interval.ms": 500 },
  });
});
test.after(async () => {
  await Promise.all(scenarios.map((scenario) => scenario.stopAll()));
  await cluster?.close();
});

/** A topic and group of the cluster. */
class Scenario extends BedScenario {
  constructor(topic: string, group: string) {
    super({ bootstrap: () => cluster.bootstrap().split(","), kafkajs: () => cluster.kafkajs() }, topic, group);
    scenarios.push(this);
  }
}

const startMember = (scenario: Scenario, name: string, options: Parameters<Scenario["startMember"]>[1] = {}): Promise<Member> => scenario.startMember(name, options);
const stopMember = (member: Member): Promise<void> => scenarios.find((scenario) => scenario.members.includes(member))!.stopMember(member);

test("members share partitions, a third joins and one leaves without a record lost or a partition owned twice; the group is of type Consumer", async () => {
  const scenario = new Scenario("kip848-events", "kip848-sluice");
  await scenario.createTopic();
  await scenario.produce(0, 60);

  const options = { groupRemoteAssignor: "uniform" };
  const a = await startMember(scenario, "sluice-a", options);
  const b = await startMember(scenario, "sluice-b", options);
  await eventually(() => split("3/3", a, b), { timeoutMs: 60_000, what: "the partitions split 3/3" });
  await eventually(() => scenario.everyRecordSeen(60), { timeoutMs: 30_000, what: "the first records read" });

  const c = await startMember(scenario, "sluice-c", options);
  await scenario.produce(60, 60);
  await eventually(() => split("2/2/2", a, b, c), { timeoutMs: 60_000, what: "the partitions split 2/2/2" });
  await scenario.produce(120, 60);
  await eventually(() => scenario.everyRecordSeen(180), { timeoutMs: 30_000, what: "the records produced while the third member joined" });

  const described = await cluster.tool("kafka-consumer-groups", ["--describe", "--group", scenario.group, "--members"]);
  for (const member of [a, b, c]) assert.match(described, member.consumer.memberId);
  const listed = await cluster.tool("kafka-consumer-groups", ["--list", "--type", "consumer"]);
  assert.match(listed, new RegExp(`^${scenario.group}\\s+Consumer`, "im"), `kafka-consumer-groups --list names the group's type Consumer:\n${listed}`);

  await stopMember(b);
  await scenario.produce(180, 60);
  await eventually(() => split("3/3", a, c), { timeoutMs: 60_000, what: "the leaving member's partitions reassigned" });
  await eventually(() => scenario.everyRecordSeen(240), { timeoutMs: 30_000, what: "the records produced after a member left" });
  assert.equal([...a.partitions, ...c.partitions].sort(), [0, 1, 2, 3, 4, 5]);

  // Every partition's offset ends committed at its end: 40 records each.
  const admin = cluster.kafkajs().admin();
  await admin.connect();
  await eventually(
    async () => {
      const [{ partitions }] = await admin.fetchOffsets({ groupId: scenario.group, topics: [scenario.topic] });
      return partitions.every(({ offset }) => offset === "40");
    },
    { timeoutMs: 30_000, what: "every partition's offset committed at its end" },
  );
  await admin.disconnect();
  assert.equal(scenario.doubleOwned, []);
  assert.equal([...a.failures, ...b.failures, ...c.failures], []);
});

test("a static member that stops leaves with epoch -2: started again, it gets its partitions back and the other member keeps its own", async () => {
  const scenario = new Scenario("kip848-static", "kip848-static-sluice");
  await staticMemberComesBack(scenario, 60_000, async () => {
    const described = await cluster.tool("kafka-consumer-groups", ["--describe", "--group", scenario.group, "--members"]);
    assert.match(described, "static-a", "the stopped static member is still in the group");
  });
});

test("a member that holds its partitions past its rebalance timeout is fenced, joins again with epoch 0, and loses no record", async () => {
  await fencedMemberRejoins(new Scenario("kip848-fenced", "kip848-fenced-sluice"), 2_000, 60_000);
});

test("group.remote.assignor reaches the coordinator: range is the group's assignor, an unknown one ends the consumer with UNSUPPORTED_ASSIGNOR", async () => {
  const scenario = new Scenario("kip848-range", "kip848-range-sluice");
  await scenario.createTopic();
  const member = await startMember(scenario, "ranged", { groupRemoteAssignor: "range" });
  await eventually(() => split("6", member), { timeoutMs: 60_000, what: "the member assigned" });
  const state = await cluster.tool("kafka-consumer-groups", ["--describe", "--group", scenario.group, "--state"]);
  assert.match(state, /\brange\b/, `the group's assignor:\n${state}`);

  const other = new Scenario("kip848-range", "kip848-nonesuch-sluice");
  const refused = await startMember(other, "refused", { groupRemoteAssignor: "nonesuch" });
  await eventually(() => refused.failures.length > 0, { timeoutMs: 30_000, what: "the consumer with an unknown assignor failed" });
  assert.match(String(refused.failures[0]), "UNSUPPORTED_ASSIGNOR");
  assert.equal(member.failures, []);
});

test.run();
