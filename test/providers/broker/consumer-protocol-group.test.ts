/**
 * The embedded broker's consumer group protocol (KIP-848), with Sluice's group consumer (`group.protocol=consumer`):
 * three members join and one leaves without a record lost or a partition owned twice, with every offset committed; a
 * static member comes back to its partitions; a member fenced for holding partitions past its rebalance timeout joins
 * again; the assignor named reaches the coordinator and an unknown one is refused; a group is classic or consumer.
 * Topic ids are kept across a restart.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Metadata } from "../../../providers/kafka-protocol/messages/metadata";
import { eventually } from "../../helpers/eventually";
import { PARTITIONS, Scenario, split, type ConsumerProtocolBed } from "../../helpers/consumer-protocol-members";
import { roundRobinAssignor } from "../kafka-client/round-robin-assignor";
import { startTestBroker, type TestBroker } from "./broker-test-kit";
import { RawKafkaClient } from "./raw-kafka-client";

const test = suite<{ broker: TestBroker; bed: ConsumerProtocolBed; scenarios: Scenario[] }>("broker: the consumer group protocol (KIP-848) with Sluice's group consumer");

test.before.each(async (context) => {
  // Heartbeats every 200 ms keep each reassignment's round trips short.
  context.broker = await startTestBroker({ autoCreateTopics: false, consumerGroupHeartbeatIntervalMs: 200, consumerGroupSessionTimeoutMs: 10_000 });
  context.bed = { bootstrap: () => [context.broker.bootstrap], kafkajs: () => context.broker.kafka() };
  context.scenarios = [];
});

test.after.each(async ({ broker, scenarios }) => {
  await Promise.all(scenarios.map((scenario) => scenario.stopAll()));
  await broker.close();
});

async function scenarioOf(context: { bed: ConsumerProtocolBed; scenarios: Scenario[] }, topic: string, group: string): Promise<Scenario> {
  const scenario = new Scenario(context.bed, topic, group);
  context.scenarios.push(scenario);
  await scenario.createTopic();
  return scenario;
}

test("three members share the partitions, one leaves: no record lost, no partition owned twice, every offset committed", async (context) => {
  const scenario = await scenarioOf(context, "kip848-events", "kip848-group");
  await scenario.produce(0, 60);
  const a = await scenario.startMember("a");
  const b = await scenario.startMember("b");
  await eventually(() => split("3/3", a, b), { timeoutMs: 30_000, what: "the partitions split 3/3" });
  await eventually(() => scenario.everyRecordSeen(60), { timeoutMs: 30_000, what: "the first records read" });

  const c = await scenario.startMember("c");
  await scenario.produce(60, 60);
  await eventually(() => split("2/2/2", a, b, c), { timeoutMs: 30_000, what: "the partitions split 2/2/2" });
  await scenario.produce(120, 60);
  await eventually(() => scenario.everyRecordSeen(180), { timeoutMs: 30_000, what: "the records produced while the third member joined" });

  await scenario.stopMember(b);
  await scenario.produce(180, 60);
  await eventually(() => split("3/3", a, c), { timeoutMs: 30_000, what: "the leaving member's partitions reassigned" });
  await eventually(() => scenario.everyRecordSeen(240), { timeoutMs: 30_000, what: "the records produced after a member left" });
  assert.equal([...a.partitions, ...c.partitions].sort(), [0, 1, 2, 3, 4, 5]);
  await eventually(async () => (await scenario.committedOffsets()).every((offset) => offset === String(240 / PARTITIONS)), { timeoutMs: 30_000, what: "every partition's offset committed at its end" });
  assert.equal(scenario.doubleOwned, []);
  assert.equal([...a.failures, ...b.failures, ...c.failures], []);
});

test("a static member that stops leaves with epoch -2: started again, it gets its partitions back and the other member keeps its own", async (context) => {
  const scenario = await scenarioOf(context, "kip848-static", "kip848-static-group");
  const a = await scenario.startMember("static-a", { groupInstanceId: "static-a" });
  const b = await scenario.startMember("static-b", { groupInstanceId: "static-b" });
  await eventually(() => split("3/3", a, b), { timeoutMs: 30_000, what: "the partitions split 3/3" });
  const [aPartitions, bRebalances] = [[...a.partitions], b.rebalances];

  await scenario.stopMember(a);
  const restarted = await scenario.startMember("static-a", { groupInstanceId: "static-a" });
  await eventually(() => split("3/3", restarted, b), { timeoutMs: 30_000, what: "the restarted member assigned" });
  assert.equal(restarted.partitions, aPartitions);
  await scenario.produce(0, 60);
  await eventually(() => scenario.everyRecordSeen(60), { timeoutMs: 30_000, what: "every record read by the two members" });
  assert.is(b.rebalances, bRebalances, "the other member took no new assignment");
  assert.equal(scenario.doubleOwned, []);
  assert.equal([...restarted.failures, ...b.failures], []);
});

test("a member that holds its partitions past its rebalance timeout is fenced, joins again with epoch 0, and loses no record", async (context) => {
  const scenario = await scenarioOf(context, "kip848-fenced", "kip848-fenced-group");
  const slow = await scenario.startMember("slow", { rebalanceTimeoutMs: 1_000 });
  await eventually(() => split("6", slow), { timeoutMs: 30_000, what: "the first member owning every partition" });
  let release = () => undefined as void;
  slow.hold = new Promise<void>((resolve) => (release = resolve));
  await scenario.produce(0, 60);
  const other = await scenario.startMember("other");
  // The coordinator asks the slow member to give half its partitions up; its batch holds them past 1 s.
  await eventually(() => slow.logged.some((line) => line.startsWith("member fenced")), { timeoutMs: 30_000, what: "the slow member fenced" });
  release();
  slow.hold = undefined;
  await eventually(() => split("3/3", slow, other), { timeoutMs: 30_000, what: "the partitions split 3/3 after the fenced member joined again" });
  await scenario.produce(60, 60);
  await eventually(() => scenario.everyRecordSeen(120), { timeoutMs: 30_000, what: "every record read" });
  assert.equal([...slow.failures, ...other.failures], []);
});

test("group.remote.assignor: range is used when named, an unknown one ends the consumer with UNSUPPORTED_ASSIGNOR", async (context) => {
  const scenario = await scenarioOf(context, "kip848-range", "kip848-range-group");
  const a = await scenario.startMember("ranged-a", { groupRemoteAssignor: "range" });
  const b = await scenario.startMember("ranged-b", { groupRemoteAssignor: "range" });
  await eventually(() => split("3/3", a, b), { timeoutMs: 30_000, what: "the members assigned" });
  // Range gives each member a contiguous run of partitions.
  for (const member of [a, b]) assert.ok(member.partitions.every((partition, i) => i === 0 || partition === member.partitions[i - 1] + 1), `${member.name}: ${member.partitions}`);

  const other = new Scenario(context.bed, "kip848-range", "kip848-nonesuch-group");
  context.scenarios.push(other);
  const refused = await other.startMember("refused", { groupRemoteAssignor: "nonesuch" });
  await eventually(() => refused.failures.length > 0, { timeoutMs: 30_000, what: "the consumer with an unknown assignor failed" });
  assert.match(String(refused.failures[0]), "UNSUPPORTED_ASSIGNOR");
  assert.equal([...a.failures, ...b.failures], []);
});

test("a group is classic or consumer: a classic member of a consumer group with members is refused with GROUP_ID_NOT_FOUND, and the reverse", async (context) => {
  const scenario = await scenarioOf(context, "kip848-types", "kip848-typed-group");
  const modern = await scenario.startMember("modern");
  await eventually(() => split("6", modern), { timeoutMs: 30_000, what: "the consumer protocol member assigned" });
  const classic = await scenario.startMember("classic", { groupProtocol: "classic", assignor: roundRobinAssignor([scenario.topic]) });
  await eventually(() => classic.failures.length > 0, { timeoutMs: 30_000, what: "the classic member refused" });
  assert.match(String(classic.failures[0]), "GROUP_ID_NOT_FOUND");

  const classicGroup = new Scenario(context.bed, scenario.topic, "kip848-classic-group");
  context.scenarios.push(classicGroup);
  const old = await classicGroup.startMember("old", { groupProtocol: "classic" });
  await eventually(() => split("6", old), { timeoutMs: 30_000, what: "the classic member assigned" });
  const refused = await classicGroup.startMember("refused");
  await eventually(() => refused.failures.length > 0, { timeoutMs: 30_000, what: "the consumer protocol member refused" });
  assert.match(String(refused.failures[0]), "GROUP_ID_NOT_FOUND");

  // Once the classic group is empty, a consumer protocol member takes its id over.
  await classicGroup.stopMember(old);
  const successor = await classicGroup.startMember("successor");
  await eventually(() => split("6", successor), { timeoutMs: 30_000, what: "the consumer protocol member took the emptied group over" });
  assert.equal([...modern.failures, ...successor.failures], []);
});

test("topic ids: Metadata v10+ names each topic's id, the same after the broker restarts on its data directory", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "sluice-topic-ids-"));
  const idsOnce = async (): Promise<Map<string, string>> => {
    const broker = await startTestBroker({ storage: "file", dataDir, autoCreateTopics: false });
    try {
      const admin = broker.kafka().admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic: "ids-a" }, { topic: "ids-b", numPartitions: 2 }] });
      await admin.disconnect();
      const client = await RawKafkaClient.connect(broker.broker.port);
      try {
        const answer = await client.request(Metadata, 11, { topics: null, allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false });
        return new Map(answer.topics.map(({ name, topicId }) => [name!, topicId]));
      } finally {
        client.close();
      }
    } finally {
      await broker.close();
    }
  };
  try {
    const first = await idsOnce();
    const second = await idsOnce();
    assert.is(first.size, 2);
    assert.ok([...first.values()].every((id) => /^[A-Za-z0-9_-]{22}$/.test(id) && id !== "AAAAAAAAAAAAAAAAAAAAAA"), JSON.stringify([...first]));
    assert.is.not(first.get("ids-a"), first.get("ids-b"));
    assert.equal(second, first);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test.run();
