import type { Producer } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { WordCountProvider } from "../../../providers/examples";
import { GroupConsumer, type RebalanceProtocol } from "../../../providers/kafka-client";
import { streamsAssignor } from "../../../providers/streams/kafka/assignment/streams-assignor";
import { applicationConfig, rebalanceProtocolOf } from "../../../providers/streams/streams-config";
import { buildTopology } from "../../../providers/streams/engine/build-topology";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";
import { eventually } from "../../helpers/eventually";

const test = suite("streams: cooperative rebalancing of the group consumer (KIP-429)");

const wordcount = new WordCountProvider();
const topology = buildTopology(wordcount, applicationConfig([{ values: wordcount.config, source: "the test" }]));
const PARTITIONS = 4;
const taskOf = (topic: string, partition: number) => `${topology.subTopologyOfTopic(topic)}_${partition}`;

interface Member {
  name: string;
  consumer: GroupConsumer;
  /** The tasks the member holds now: as its last assignment left them, less those it gave up since. */
  tasks: Set<string>;
  assignments: string[][];
  revocations: number;
  /** Batches of records processed while the member's join was under way. */
  processedWhileJoining: number;
  failures: unknown[];
}

let broker: TestBroker;
let producer: Producer;
let members: Member[] = [];
/** Each time a member was handed tasks: whether another member held one of them at that moment. */
let overlaps: string[] = [];
let group = 0;

test.before.each(async () => {
  broker = await startTestBroker({ autoCreateTopics: false });
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: topology.sourceTopics().map((topic) => ({ topic, numPartitions: PARTITIONS })) });
  await admin.disconnect();
  producer = broker.kafka().producer();
  await producer.connect();
  members = [];
  overlaps = [];
  group++;
});

test.after.each(async () => {
  await Promise.all(members.map((member) => member.consumer.stop()));
  await producer.disconnect();
  await broker.close();
});

async function join(name: string, protocol: RebalanceProtocol, heartbeatIntervalMs = 100): Promise<Member> {
  const member: Member = { name, consumer: undefined!, tasks: new Set(), assignments: [], revocations: 0, processedWhileJoining: 0, failures: [] };
  member.consumer = new GroupConsumer(
    {
      bootstrapServers: [broker.bootstrap],
      clientId: name,
      groupId: `cooperative-${group}`,
      assignor: streamsAssignor(topology, `${name}:1`, () => [...member.tasks]),
      rebalanceProtocol: protocol,
      heartbeatIntervalMs,
      sessionTimeoutMs: 10_000,
      maxWaitMs: 50,
    },
    {
      rebalancing: () => {},
      revoking: async () => void member.revocations++,
      assigned: async (partitions) => {
        const tasks = new Set(Object.entries(partitions).flatMap(([topic, list]) => list.map((partition) => taskOf(topic, partition))));
        for (const other of members) {
          if (other === member) continue;
          for (const task of tasks) if (other.tasks.has(task)) overlaps.push(`${task}: given to ${member.name} while ${other.name} held it`);
        }
        member.tasks = tasks;
        member.assignments.push([...tasks].sort());
      },
      batch: async () => {
        if (member.consumer.rebalanceInProgress) member.processedWhileJoining++;
      },
      failed: (error) => void member.failures.push(error),
    },
  );
  members.push(member);
  await member.consumer.start();
  return member;
}

/** Writes one record to every partition of `words` every few milliseconds until `done` resolves. */
async function produceUntil(done: Promise<unknown>): Promise<void> {
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    await producer.send({ topic: "words", messages: Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, value: "w" })) });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const settled = (expected: number) =>
  eventually(() => members.every((member) => !member.consumer.rejoinPending && !member.consumer.rebalanceInProgress) && members.reduce((sum, member) => sum + member.tasks.size, 0) === expected && members.every((m) => m.assignments.length > 0), {
    what: `${expected} tasks held, the group settled`,
    timeoutMs: 20_000,
  });

test("a member joining takes tasks only once their owner gave them up; the others keep theirs and go on processing", async () => {
  const first = await join("a", "cooperative");
  // A member that learns of rebalances late keeps each one open for a few seconds.
  const late = await join("c", "cooperative", 2_000);
  await settled(8);
  const before = new Map(members.map((member) => [member.name, new Set(member.tasks)]));
  first.processedWhileJoining = 0;
  const joined = join("b", "cooperative");
  const balanced = joined.then(async (second) => {
    await eventually(() => second.tasks.size > 0 && members.every((member) => !member.consumer.rebalanceInProgress && !member.consumer.rejoinPending), { what: "b holding tasks, the group settled", timeoutMs: 30_000 });
    return second;
  });
  await produceUntil(balanced);
  const second = await balanced;
  assert.equal(overlaps, []);
  assert.equal(members.map((member) => member.failures), [[], [], []]);
  assert.equal(members.map((member) => member.tasks.size).sort(), [2, 3, 3]);
  // What a and c hold they held before: only b's share moved, each task once.
  for (const member of [first, late]) for (const task of member.tasks) assert.ok(before.get(member.name)!.has(task), `${task} stayed with ${member.name}`);
  assert.is(new Set(members.flatMap((member) => [...member.tasks])).size, 8);
  assert.ok(second.assignments.length >= 1);
  // a went on processing while the rebalances were under way, and gave up only what moved.
  assert.ok(first.processedWhileJoining > 0, "a processed batches while joining");
  assert.ok(first.revocations >= 1);
});

test("eager: every member gives everything up and processes nothing while it joins", async () => {
  const first = await join("a", "eager");
  await join("c", "eager", 2_000);
  await settled(8);
  first.processedWhileJoining = 0;
  const revocationsBefore = first.revocations;
  const joined = join("b", "eager");
  const balanced = joined.then((second) => eventually(() => second.tasks.size > 0 && members.every((member) => !member.consumer.rejoinPending), { what: "b holding tasks", timeoutMs: 30_000 }));
  await produceUntil(balanced);
  assert.is(first.processedWhileJoining, 0);
  assert.ok(first.revocations > revocationsBefore);
  await settled(8);
});

test("the protocol follows upgrade.from as in Kafka Streams: eager when upgrading from before 2.4", () => {
  const protocolOf = (values: Record<string, string>) => rebalanceProtocolOf(applicationConfig([{ values: { ...wordcount.config, ...values }, source: "the test" }]).settings);
  assert.is(protocolOf({}), "cooperative");
  assert.is(protocolOf({ "upgrade.from": "2.3" }), "eager");
  assert.is(protocolOf({ "upgrade.from": "0.10.0" }), "eager");
  assert.is(protocolOf({ "upgrade.from": "2.4" }), "cooperative");
  assert.throws(() => protocolOf({ "upgrade.from": "2.3.1" }), /upgrade\.from/);
});

test.run();
