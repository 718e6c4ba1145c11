/**
 * Sluice's group consumer with `group.protocol=consumer` (KIP-848) on Apache Kafka 4.4 (the reference jars): the
 * coordinator assigns; members share a topic's partitions, a third member joining and one leaving move partitions
 * without losing a record or giving a partition to two members at once, the offsets end committed, and Kafka's tools
 * show a group of type Consumer. A static member comes back to its partitions; a member fenced for holding partitions
 * past its rebalance timeout joins again with epoch 0; `group.remote.assignor` reaches the coordinator.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { GroupConsumer, type GroupConsumerOptions } from "../../../providers/kafka-client";
import type { ComponentLogger } from "../../../kernel/logger";
import { eventually } from "../../helpers/eventually";
import { startKafkaCluster, type KafkaCluster } from "../../helpers/kafka-cluster";
import { roundRobinAssignor } from "../../providers/kafka-client/round-robin-assignor";

const test = suite("Sluice's consumer protocol group member on Apache Kafka");
const PARTITIONS = 6;

let cluster: KafkaCluster;
const members: Member[] = [];

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

/** One topic and group, and what its members did with them. */
class Scenario {
  /** The member that owns each partition now: a second owner at once is a failure. */
  readonly owners = new Map<number, string>();
  readonly doubleOwned: string[] = [];
  readonly seen = new Set<string>();
  constructor(
    readonly topic: string,
    readonly group: string,
  ) {}

  async createTopic(): Promise<void> {
    const admin = cluster.kafkajs().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: this.topic, numPartitions: PARTITIONS }], waitForLeaders: true });
    await admin.disconnect();
  }

  async produce(from: number, count: number): Promise<void> {
    const producer = cluster.kafkajs().producer();
    await producer.connect();
    await producer.send({ topic: this.topic, acks: -1, messages: Array.from({ length: count }, (_, i) => ({ value: `v${from + i}`, partition: (from + i) % PARTITIONS })) });
    await producer.disconnect();
  }

  everyRecordSeen(count: number): boolean {
    return Array.from({ length: count }, (_, i) => `v${i}`).every((value) => this.seen.has(value));
  }
}

interface Member {
  name: string;
  consumer: GroupConsumer;
  partitions: number[];
  /** How many new assignments it took after its first. */
  rebalances: number;
  failures: unknown[];
  logged: string[];
  /** While set, its batches wait for this. */
  hold?: Promise<void>;
}

async function startMember(scenario: Scenario, name: string, options: Partial<GroupConsumerOptions> = {}): Promise<Member> {
  const member: Member = { name, consumer: undefined as unknown as GroupConsumer, partitions: [], rebalances: 0, failures: [], logged: [] };
  const log = (message: string) => void member.logged.push(message);
  const logger: ComponentLogger = { debug: log, info: log, warn: log, error: log };
  member.consumer = new GroupConsumer(
    {
      bootstrapServers: cluster.bootstrap().split(","),
      clientId: name,
      groupId: scenario.group,
      groupProtocol: "consumer",
      // The coordinator assigns: only the subscription's topics count.
      assignor: roundRobinAssignor([scenario.topic]),
      maxWaitMs: 100,
      logger,
      ...options,
    },
    {
      rebalancing: () => void member.rebalances++,
      // Called before the member gives its partitions up: when it takes a new assignment, and when it stops.
      revoking: async () => {
        for (const partition of member.partitions) if (scenario.owners.get(partition) === name) scenario.owners.delete(partition);
        member.partitions = [];
      },
      assigned: async (partitions) => {
        member.partitions = partitions[scenario.topic] ?? [];
        for (const partition of member.partitions) {
          const owner = scenario.owners.get(partition);
          if (owner !== undefined && owner !== name) scenario.doubleOwned.push(`partition ${partition}: ${owner} and ${name}`);
          scenario.owners.set(partition, name);
        }
      },
      batch: async (batch) => {
        await member.hold;
        for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) scenario.seen.add(record.value!.toString());
      },
      failed: (error) => void member.failures.push(error),
    },
  );
  members.push(member);
  await member.consumer.start();
  return member;
}

async function stopMember(member: Member): Promise<void> {
  await member.consumer.stop();
  members.splice(members.indexOf(member), 1);
}

const counts = (...list: Member[]) => list.map((member) => member.partitions.length).join("/");
/** The members' partition counts are `expected` and none has a new assignment to take; else throws what they are. */
function split(expected: string, ...list: Member[]): true {
  const now = counts(...list);
  if (now !== expected || list.some((member) => member.consumer.rejoinPending)) throw new Error(`the split is ${now}`);
  return true;
}

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
  await scenario.createTopic();
  const a = await startMember(scenario, "static-a", { groupInstanceId: "static-a" });
  const b = await startMember(scenario, "static-b", { groupInstanceId: "static-b" });
  await eventually(() => split("3/3", a, b), { timeoutMs: 60_000, what: "the partitions split 3/3" });
  const [aPartitions, bRebalances] = [[...a.partitions], b.rebalances];

  await stopMember(a);
  const described = await cluster.tool("kafka-consumer-groups", ["--describe", "--group", scenario.group, "--members"]);
  assert.match(described, "static-a", "the stopped static member is still in the group");
  const restarted = await startMember(scenario, "static-a", { groupInstanceId: "static-a" });
  await eventually(() => split("3/3", restarted, b), { timeoutMs: 60_000, what: "the restarted member assigned" });
  assert.equal(restarted.partitions, aPartitions);
  await scenario.produce(0, 60);
  await eventually(() => scenario.everyRecordSeen(60), { timeoutMs: 30_000, what: "every record read by the two members" });
  assert.is(b.rebalances, bRebalances, "the other member took no new assignment");
  assert.equal(scenario.doubleOwned, []);
  assert.equal([...restarted.failures, ...b.failures], []);
});

test("a member that holds its partitions past its rebalance timeout is fenced, joins again with epoch 0, and loses no record", async () => {
  const scenario = new Scenario("kip848-fenced", "kip848-fenced-sluice");
  await scenario.createTopic();
  const slow = await startMember(scenario, "slow", { rebalanceTimeoutMs: 2_000 });
  await eventually(() => split("6", slow), { timeoutMs: 60_000, what: "the first member owning every partition" });
  let release = () => undefined as void;
  slow.hold = new Promise<void>((resolve) => (release = resolve));
  await scenario.produce(0, 60);
  const other = await startMember(scenario, "other");
  // The coordinator asks the slow member to give half its partitions up; its batch holds them past 2 s.
  await eventually(() => slow.logged.some((line) => line.startsWith("member fenced")), { timeoutMs: 60_000, what: "the slow member fenced" });
  release();
  slow.hold = undefined;
  await eventually(() => split("3/3", slow, other), { timeoutMs: 60_000, what: "the partitions split 3/3 after the fenced member joined again" });
  await scenario.produce(60, 60);
  await eventually(() => scenario.everyRecordSeen(120), { timeoutMs: 30_000, what: "every record read" });
  assert.equal([...slow.failures, ...other.failures], []);
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
