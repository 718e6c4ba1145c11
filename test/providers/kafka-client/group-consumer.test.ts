import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Producer } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BrokerConnection } from "../../../providers/kafka-client/broker-connection";
import { LEAVE_GROUP } from "../../../providers/kafka-client/client-apis";
import {
  BrokerConnectionError,
  GroupConsumer,
  GroupError,
  MembershipLostError,
  UnsupportedVersionError,
  type FetchedBatch,
  type GroupConsumerOptions,
} from "../../../providers/kafka-client";
import { ErrorCode } from "../../../providers/kafka-protocol";
import { recordingLogger } from "../broker/storage/log-store-fixture";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";
import { eventually } from "../../helpers/eventually";
import { roundRobinAssignor } from "./round-robin-assignor";

const TOPIC = "events";
const PARTITIONS = 3;

interface Member {
  consumer: GroupConsumer;
  read: { partition: number; offset: number; value: string }[];
  assignments: Record<string, number[]>[];
  rebalances: number;
  /** Times the member was told it gives its partitions up (revoking), and that it lost them (lost). */
  revoked: number;
  lost: number;
  failures: unknown[];
}

interface Context {
  broker: TestBroker;
  producer: Producer;
  members: Member[];
}

const test = suite<Context>("kafka client: group consumer");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ autoCreateTopics: false });
  const admin = context.broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }] });
  await admin.disconnect();
  context.producer = context.broker.kafka().producer();
  await context.producer.connect();
  context.members = [];
});

test.after.each(async ({ broker, producer, members }) => {
  await Promise.all(members.map((member) => member.consumer.stop()));
  await producer.disconnect();
  await broker.close();
});

interface Hooks {
  /** Runs before a batch is read; may throw. */
  batch?: (batch: FetchedBatch) => void;
  /** Runs before an assignment is recorded; may throw. */
  assigned?: () => void;
}

async function startMember(
  context: Pick<Context, "broker" | "members">,
  groupId: string,
  hooks: Hooks = {},
  options: Partial<GroupConsumerOptions> = {},
): Promise<Member> {
  const member: Member = { consumer: undefined as unknown as GroupConsumer, read: [], assignments: [], rebalances: 0, revoked: 0, lost: 0, failures: [] };
  member.consumer = new GroupConsumer(
    { bootstrapServers: [context.broker.bootstrap], clientId: `member-${context.members.length}`, groupId, assignor: roundRobinAssignor([TOPIC]), heartbeatIntervalMs: 100, maxWaitMs: 50, ...options },
    {
      rebalancing: () => void member.rebalances++,
      assigned: async (partitions) => {
        hooks.assigned?.();
        member.assignments.push(partitions);
      },
      batch: async (batch) => {
        hooks.batch?.(batch);
        for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) {
          member.read.push({ partition: batch.partition, offset: record.offset, value: record.value!.toString() });
        }
      },
      revoking: async () => void member.revoked++,
      lost: async () => void member.lost++,
      failed: (error) => void member.failures.push(error),
    },
  );
  context.members.push(member);
  await member.consumer.start();
  return member;
}

async function produce(producer: Producer, from: number, count: number): Promise<void> {
  const messages = Array.from({ length: count }, (_, i) => ({ value: `v${from + i}`, partition: (from + i) % PARTITIONS }));
  await producer.send({ topic: TOPIC, messages, acks: -1 });
}

async function committedOffsets(context: Pick<Context, "broker">, groupId: string): Promise<number[]> {
  const admin = context.broker.kafka().admin();
  await admin.connect();
  try {
    const [{ partitions }] = await admin.fetchOffsets({ groupId, topics: [TOPIC] });
    return partitions.sort((a, b) => a.partition - b.partition).map((entry) => Number(entry.offset));
  } finally {
    await admin.disconnect();
  }
}

const lastAssignment = (member: Member) => member.assignments.at(-1)?.[TOPIC] ?? [];

test("a paused member fetches nothing but stays in its group: it takes its share in a rebalance, and once resumed reads on", async (context) => {
  await produce(context.producer, 0, 30);
  const first = await startMember(context, "paused");
  await eventually(async () => first.read.length === 30 && (await committedOffsets(context, "paused")).join() === "10,10,10", { what: "30 records read and committed" });
  first.consumer.pause();
  await produce(context.producer, 30, 30);
  const second = await startMember(context, "paused");
  await eventually(() => lastAssignment(first).length > 0 && lastAssignment(second).length > 0 && lastAssignment(first).length + lastAssignment(second).length === PARTITIONS, {
    what: "the partitions split between the paused member and the new one",
  });
  const newRecords = (member: Member) => member.read.filter((record) => record.offset >= 10);
  await eventually(() => newRecords(second).length === 10 * lastAssignment(second).length, { what: "the new member reading its partitions' new records" });
  assert.is(first.read.length, 30, "the paused member read nothing");
  assert.ok(first.rebalances >= 1, "the paused member rejoined");

  first.consumer.resume();
  await eventually(() => newRecords(first).length === 10 * lastAssignment(first).length, { what: "the resumed member reading on" });
  assert.equal(newRecords(first).map((record) => record.offset).sort((a, b) => a - b)[0], 10, "from where it stopped");
  assert.equal([...first.read, ...second.read].filter((record) => record.offset >= 10).length, 30, "every new record read once");
  assert.equal(first.failures, []);
});

test("a member reads every partition from its earliest offset in order, commits, and a later member resumes from the commits", async (context) => {
  await produce(context.producer, 0, 300);
  const first = await startMember(context, "resume");
  await eventually(() => first.read.length >= 300, { timeoutMs: 10_000, what: "300 records read" });
  assert.is(first.read.length, 300);
  assert.equal(lastAssignment(first).sort(), [0, 1, 2]);
  assert.is(first.rebalances, 0);
  for (let partition = 0; partition < PARTITIONS; partition++) {
    const mine = first.read.filter((record) => record.partition === partition);
    assert.equal(mine.map((record) => record.offset), Array.from({ length: 100 }, (_, i) => i));
    assert.equal(mine.map((record) => record.value), Array.from({ length: 100 }, (_, i) => `v${i * PARTITIONS + partition}`));
  }
  await eventually(async () => (await committedOffsets(context, "resume")).join() === "100,100,100", { timeoutMs: 10_000, what: "offsets 100 committed on every partition" });

  await first.consumer.stop();
  await produce(context.producer, 300, 30);
  const second = await startMember(context, "resume");
  await eventually(() => second.read.length >= 30, { timeoutMs: 10_000, what: "the 30 new records read" });
  assert.equal(second.read.map((record) => record.value).sort(), Array.from({ length: 30 }, (_, i) => `v${300 + i}`).sort());
  assert.equal(first.failures.concat(second.failures), []);
});

test("two members split the partitions, each record is read once, and the one left takes every partition when the other leaves", async (context) => {
  const a = await startMember(context, "split");
  await eventually(() => lastAssignment(a).length === PARTITIONS, { timeoutMs: 10_000, what: "the first member owning every partition" });
  const b = await startMember(context, "split");
  await eventually(() => lastAssignment(a).length + lastAssignment(b).length === PARTITIONS && lastAssignment(b).length > 0, {
    timeoutMs: 15_000,
    what: "the partitions split between the two members",
  });
  assert.equal([...lastAssignment(a), ...lastAssignment(b)].sort(), [0, 1, 2]);
  assert.ok(a.rebalances >= 1, "the first member gave its partitions back in a rebalance");
  assert.is(b.rebalances, 0, "joining is no rebalance of the joiner's own");

  const admin = context.broker.kafka().admin();
  await admin.connect();
  const { groups } = await admin.describeGroups(["split"]);
  await admin.disconnect();
  assert.is(groups[0].protocol, "test-round-robin");
  assert.equal(groups[0].members.map((member) => member.clientId).sort(), ["member-0", "member-1"]);

  await produce(context.producer, 0, 90);
  await eventually(() => a.read.length + b.read.length >= 90, { timeoutMs: 10_000, what: "90 records read between the members" });
  assert.ok(b.read.length > 0 && a.read.length > 0, "both members read");
  assert.ok(b.read.every((record) => lastAssignment(b).includes(record.partition)), "the second member read only its partitions");

  await b.consumer.stop();
  await eventually(() => lastAssignment(a).length === PARTITIONS, { timeoutMs: 10_000, what: "the remaining member owning every partition" });
  await produce(context.producer, 90, 30);
  await eventually(() => a.read.length + b.read.length >= 120, { timeoutMs: 10_000, what: "all 120 records read" });
  const positions = [...a.read, ...b.read].map((record) => `${record.partition}:${record.offset}`);
  assert.is(new Set(positions).size, 120, "no record read twice");
  assert.is(positions.length, 120);
});

/** Two members of `groupId` splitting the partitions, the first one (the leader) static with `instance`. */
async function staticAndDynamicMembers(context: Context, groupId: string, instance: string): Promise<[Member, Member]> {
  const a = await startMember(context, groupId, {}, { groupInstanceId: instance });
  await eventually(() => lastAssignment(a).length === PARTITIONS, { timeoutMs: 10_000, what: "the static member owning every partition" });
  const b = await startMember(context, groupId);
  await eventually(() => lastAssignment(a).length + lastAssignment(b).length === PARTITIONS && lastAssignment(b).length > 0 && !a.consumer.rejoinPending, {
    timeoutMs: 15_000,
    what: "the partitions split between the two members",
  });
  return [a, b];
}

test("a static member stopped and started again within the session timeout gets its partitions back with no rebalance", async (context) => {
  const [a, b] = await staticAndDynamicMembers(context, "static-restart", "instance-a");
  const generation = b.consumer.generationId;
  const [aPartitions, bAssignments] = [lastAssignment(a), b.assignments.length];
  await a.consumer.stop();
  // Sent while the static member is away: its partitions wait for it; the other member reads its own on.
  await produce(context.producer, 0, 30);
  await eventually(() => b.read.length === lastAssignment(b).length * 10, { timeoutMs: 10_000, what: "the other member reading its partitions while the static one is away" });
  const restarted = await startMember(context, "static-restart", {}, { groupInstanceId: "instance-a" });
  await eventually(() => restarted.read.length === aPartitions.length * 10, { timeoutMs: 10_000, what: "the restarted member reading its old partitions from their commits" });
  assert.equal(lastAssignment(restarted), aPartitions);
  assert.is(restarted.consumer.generationId, generation, "the group's generation did not change");
  assert.is(b.consumer.generationId, generation);
  assert.is(b.rebalances, 0, "the other member was never asked to rejoin");
  assert.is(b.assignments.length, bAssignments);
  assert.is.not(restarted.consumer.memberId, a.consumer.memberId, "the instance has a new member id");
  assert.equal(restarted.failures, []);
});

test("a second member with the same group.instance.id fences the first, which fails with FENCED_INSTANCE_ID", async (context) => {
  const [a, b] = await staticAndDynamicMembers(context, "static-fenced", "instance-a");
  const aPartitions = lastAssignment(a);
  const twin = await startMember(context, "static-fenced", {}, { groupInstanceId: "instance-a" });
  await eventually(() => a.failures.length > 0, { timeoutMs: 10_000, what: "the first member fenced" });
  const failure = a.failures[0];
  assert.ok(failure instanceof GroupError && failure.errorCode === ErrorCode.FENCED_INSTANCE_ID, `failed with ${String(failure)}`);
  await eventually(() => lastAssignment(twin).length > 0, { timeoutMs: 10_000, what: "the twin taking the instance's partitions" });
  assert.equal(lastAssignment(twin), aPartitions);
  assert.is(b.rebalances, 0);
});

test("an error thrown by the batch handler ends the consumer through `failed`, and nothing after it is committed", async (context) => {
  await produce(context.producer, 0, 30);
  const boom = new Error("processing broke");
  const member = await startMember(context, "failing", {
    batch: () => {
      throw boom;
    },
  });
  await eventually(() => member.failures.length > 0, { timeoutMs: 10_000, what: "the failure reported" });
  assert.is(member.failures[0], boom);
  assert.is(member.read.length, 0);
  assert.equal(await committedOffsets(context, "failing"), [-1, -1, -1]);
});

test("a connection lost while an assignment is taken over makes the member join again before it reads anything", async (context) => {
  await produce(context.producer, 0, 30);
  let takeOvers = 0;
  const member = await startMember(context, "retake", {
    assigned: () => {
      if (++takeOvers === 1) throw new BrokerConnectionError(context.broker.bootstrap, "lost in the test");
    },
    batch: () => assert.is(member.assignments.length, 1, "a batch is read only once the assignment is taken over"),
  });
  await eventually(() => member.read.length >= 30, { timeoutMs: 10_000, what: "30 records read after the second take-over" });
  assert.is(takeOvers, 2);
  assert.equal(lastAssignment(member).sort(), [0, 1, 2]);
  assert.equal(member.failures, []);
  assert.equal(new Set(member.read.map((record) => `${record.partition}:${record.offset}`)).size, 30);
});

test("cooperative: a connection lost while a rebalance's assignment is taken over makes the member join again, not fetch on from its old assignment", async (context) => {
  let takeOvers = 0;
  const cooperative: Partial<GroupConsumerOptions> = { rebalanceProtocol: "cooperative" };
  const first = await startMember(
    context,
    "coop-retake",
    {
      assigned: () => {
        if (++takeOvers === 2) throw new BrokerConnectionError(context.broker.bootstrap, "lost in the test");
      },
    },
    cooperative,
  );
  await eventually(() => first.assignments.length === 1, { what: "the first member's first assignment" });
  const second = await startMember(context, "coop-retake", {}, cooperative);
  const split = () => [...lastAssignment(first), ...lastAssignment(second)].sort();
  await eventually(() => first.assignments.length >= 2 && second.assignments.length >= 1 && split().join() === "0,1,2", {
    what: "the first member told its assignment after the failed take-over, the partitions split between the two",
    timeoutMs: 15_000,
  });
  assert.ok(takeOvers >= 3, `take-overs: ${takeOvers}`);
  assert.equal([first.failures, second.failures], [[], []]);
});

test("cooperative: a member that loses its work while its join is under way reads nothing more until it has joined again", async (context) => {
  const cooperative: Partial<GroupConsumerOptions> = { rebalanceProtocol: "cooperative" };
  // Set once the member reported its work lost during a join; batches read after it, before its next assignment.
  let lostAt = -1;
  let readAfterLoss = 0;
  const first = await startMember(
    context,
    "coop-lost",
    {
      batch: () => {
        if (lostAt >= 0 && first.assignments.length === lostAt) readAfterLoss++;
        else if (lostAt < 0 && first.consumer.rebalanceInProgress) {
          lostAt = first.assignments.length;
          throw new MembershipLostError("the test's task was taken over by another member");
        }
      },
      assigned: () => undefined,
    },
    cooperative,
  );
  // A member that heartbeats seldom keeps each rebalance open for a while.
  await startMember(context, "coop-lost", {}, { ...cooperative, heartbeatIntervalMs: 2_000 });
  await eventually(() => first.assignments.length >= 1 && context.members[1].assignments.length >= 1 && !first.consumer.rebalanceInProgress, { what: "two members" });
  let feeding = true;
  const feed = (async () => {
    for (let from = 0; feeding; from += 3) {
      await produce(context.producer, from, 3);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    await startMember(context, "coop-lost", {}, cooperative);
    await eventually(() => lostAt >= 0 && first.assignments.length > lostAt && context.members.every((member) => !member.consumer.rebalanceInProgress && !member.consumer.rejoinPending), {
      what: "the first member's work lost during a join, then an assignment after it",
      timeoutMs: 20_000,
    });
  } finally {
    feeding = false;
    await feed;
  }
  assert.is(readAfterLoss, 0, "batches read between the loss and the next assignment");
  assert.equal(context.members.map((member) => member.failures), [[], [], []]);
});

/** Removes a member from its group as an administrator does (LeaveGroup naming it, Kafka's removeMembersFromConsumerGroup). */
async function removeMember(context: Pick<Context, "broker">, groupId: string, memberId: string): Promise<void> {
  const connection = await BrokerConnection.open(context.broker.bootstrap, { clientId: "remover", connectTimeoutMs: 5_000, requestTimeoutMs: 5_000, maxResponseBytes: 1 << 20 });
  try {
    const answer = await connection.request(LEAVE_GROUP, { groupId, memberId, members: [{ memberId, groupInstanceId: null }] });
    assert.equal(answer.members.map((member) => member.errorCode), [ErrorCode.NONE]);
  } finally {
    connection.close();
  }
}

for (const rebalanceProtocol of ["eager", "cooperative"] as const) {
  test(`${rebalanceProtocol}: a member removed from its group is told its partitions were lost, not revoked, commits nothing of them and joins again`, async (context) => {
    const groupId = `removed-${rebalanceProtocol}`;
    await produce(context.producer, 0, 30);
    const member = await startMember(context, groupId, {}, { rebalanceProtocol });
    await eventually(async () => member.read.length >= 30 && (await committedOffsets(context, groupId)).join() === "10,10,10", { what: "30 records read and committed" });
    const removedId = member.consumer.memberId;
    const joins = member.assignments.length;
    await removeMember(context, groupId, removedId);
    await eventually(() => member.assignments.length > joins, { what: "the removed member joined again", timeoutMs: 10_000 });
    assert.not.equal(member.consumer.memberId, removedId);
    // Revoking would let a handler commit (under exactly_once_v2, a transaction's offsets) for partitions it no longer owns.
    assert.equal({ lost: member.lost, revoked: member.revoked }, { lost: 1, revoked: 0 });
    await produce(context.producer, 30, 30);
    await eventually(() => new Set(member.read.map((record) => record.value)).size === 60, { what: "the records produced after the rejoin read" });
    assert.equal(member.failures, []);
  });
}

for (const rebalanceProtocol of ["eager", "cooperative"] as const) {
  test(`${rebalanceProtocol}: enforceRebalance has the group rebalance (a new generation for every member); cooperative members give nothing up`, async (context) => {
    const groupId = `enforced-${rebalanceProtocol}`;
    await produce(context.producer, 0, 30);
    const [first, second] = [await startMember(context, groupId, {}, { rebalanceProtocol }), await startMember(context, groupId, {}, { rebalanceProtocol })];
    await eventually(() => lastAssignment(first).length + lastAssignment(second).length === PARTITIONS && first.consumer.generationId === second.consumer.generationId, {
      what: "the partitions split between the two members",
      timeoutMs: 10_000,
    });
    const generation = first.consumer.generationId;
    const before = { first: [...lastAssignment(first)], second: [...lastAssignment(second)], revoked: first.revoked + second.revoked };
    // The leader's JoinGroup always starts a rebalance (another member's only with a changed subscription, as in Kafka).
    first.consumer.enforceRebalance();
    await eventually(() => first.consumer.generationId > generation && second.consumer.generationId === first.consumer.generationId && !first.consumer.rejoinPending && !second.consumer.rejoinPending, {
      what: "both members in a new generation",
      timeoutMs: 10_000,
    });
    assert.equal({ first: lastAssignment(first), second: lastAssignment(second) }, { first: before.first, second: before.second }, "nothing had to move");
    // Eager members give every partition up before they join; cooperative ones keep theirs, and process on meanwhile.
    assert.is(first.revoked + second.revoked - before.revoked, rebalanceProtocol === "eager" ? 2 : 0);
    assert.equal({ lost: first.lost + second.lost, failures: [...first.failures, ...second.failures] }, { lost: 0, failures: [] });
    await produce(context.producer, 30, 30);
    await eventually(() => new Set([...first.read, ...second.read].map((record) => record.value)).size === 60, { what: "every record read after the rebalance" });
  });
}

test("a member stopped while its JoinGroup waits for a rebalance leaves the group: the others' rebalance ends without waiting for its session", async (context) => {
  // Long timeouts: a member that did not leave would hold the rebalance up for 30 s.
  const patient: Partial<GroupConsumerOptions> = { sessionTimeoutMs: 30_000, rebalanceTimeoutMs: 30_000 };
  const stopping = await startMember(context, "stop-joining", {}, patient);
  // A member that heartbeats seldom keeps the next rebalance open for a while after the first member joined it.
  const slow = await startMember(context, "stop-joining", {}, { ...patient, heartbeatIntervalMs: 3_000 });
  await eventually(() => lastAssignment(stopping).length + lastAssignment(slow).length === PARTITIONS, { what: "two members holding every partition", timeoutMs: 15_000 });
  const rebalances = stopping.rebalances;
  const third = await startMember(context, "stop-joining", {}, patient);
  await eventually(() => stopping.rebalances > rebalances, { what: "the first member joining the rebalance the third one started" });
  await stopping.consumer.stop();
  await eventually(() => lastAssignment(slow).length + lastAssignment(third).length === PARTITIONS && lastAssignment(third).length > 0, {
    what: "the two members left holding every partition",
    timeoutMs: 10_000,
  });
  const admin = context.broker.kafka().admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups(["stop-joining"]);
    assert.equal(groups[0].members.map((member) => member.memberId).sort(), [slow.consumer.memberId, third.consumer.memberId].sort());
  } finally {
    await admin.disconnect();
  }
  assert.equal([stopping.failures, slow.failures, third.failures], [[], [], []]);
});

test("partitions of a topic another member is still creating are waited for, not a failure", async (context) => {
  const logger = recordingLogger();
  const member = await startMember(context, "early", {}, { assignor: roundRobinAssignor(["later"]), knownPartitionCount: (topic) => (topic === "later" ? 2 : undefined), logger });
  await eventually(() => logger.lines.some((line) => line.msg === "waiting for the leaders of assigned partitions"), { what: "the member waiting for the new topic's leaders" });
  const admin = context.broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "later", numPartitions: 2 }] });
  await context.producer.send({ topic: "later", messages: [{ value: "a", partition: 0 }, { value: "b", partition: 1 }], acks: -1 });
  await eventually(() => member.read.length === 2, { what: "the records of the new topic" });
  assert.equal(member.failures, []);
  assert.equal(member.assignments.map((assignment) => assignment.later), [[0, 1]]);
});

test("a member asking for the consumer group protocol of a broker without it fails, naming ConsumerGroupHeartbeat", async (context) => {
  // A broker of a Kafka before 3.7.
  await context.broker.close();
  context.broker = await startTestBroker({ autoCreateTopics: false, apiVersions: { ConsumerGroupHeartbeat: "none" } });
  const member = await startMember(context, "kip848-group", {}, { groupProtocol: "consumer" });
  await eventually(() => member.failures.length > 0, { timeoutMs: 10_000, what: "the member failed" });
  assert.instance(member.failures[0], UnsupportedVersionError);
  assert.match(String(member.failures[0]), "share no version of ConsumerGroupHeartbeat: Sluice sends 1, the broker does not implement it");
  assert.equal(member.assignments, []);
});

test("start rejects, naming the broker, when no bootstrap server answers", async () => {
  const consumer = new GroupConsumer(
    { bootstrapServers: ["127.0.0.1:1"], clientId: "nobody", groupId: "none", assignor: roundRobinAssignor([TOPIC]) },
    { rebalancing() {}, assigned: async () => undefined, batch: async () => undefined, failed() {} },
  );
  const error = await consumer.start().then(() => undefined, (reason: Error) => reason);
  assert.match(String(error), /connection to broker 127\.0\.0\.1:1/);
  await consumer.stop();
});

test.run();

const brokerChanges = suite("kafka client: group consumer across broker changes");

brokerChanges("a member whose broker restarts reconnects, joins again and resumes from its commits", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "sluice-consumer-restart-"));
  const context = { broker: await startTestBroker({ storage: "file", dataDir, autoCreateTopics: false }), members: [] as Member[] };
  const port = context.broker.broker.port;
  try {
    const admin = context.broker.kafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }] });
    const producer = context.broker.kafka().producer();
    await producer.connect();
    await produce(producer, 0, 30);
    const member = await startMember(context, "restart");
    await eventually(async () => member.read.length >= 30 && (await committedOffsets(context, "restart")).join() === "10,10,10", {
      timeoutMs: 10_000,
      what: "30 records read and committed",
    });
    await context.broker.close();
    context.broker = await startTestBroker({ storage: "file", dataDir, autoCreateTopics: false, port });
    const again = context.broker.kafka().producer();
    await again.connect();
    await produce(again, 30, 30);
    await eventually(() => member.read.length >= 60, { timeoutMs: 20_000, what: "the 30 records produced after the restart read" });
    assert.equal(member.read.map((record) => record.value).sort(), Array.from({ length: 60 }, (_, i) => `v${i}`).sort());
    assert.equal(member.failures, []);
  } finally {
    await Promise.all(context.members.map((member) => member.consumer.stop()));
    await context.broker.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

brokerChanges("a committed position that retention has deleted restarts at the partition's earliest offset", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "sluice-consumer-retention-"));
  const context = {
    broker: await startTestBroker({ storage: "file", dataDir, autoCreateTopics: false, segmentBytes: 512, retentionBytes: 1_024, retentionCheckIntervalMs: 20 }),
    members: [] as Member[],
  };
  try {
    const admin = context.broker.kafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 1 }] });
    const producer = context.broker.kafka().producer();
    await producer.connect();
    for (let i = 0; i < 40; i++) await producer.send({ topic: TOPIC, messages: [{ value: `v${i}`.padEnd(60, ".") }], acks: -1 });
    const start = await eventually(
      async () => {
        const [{ low }] = await admin.fetchTopicOffsets(TOPIC);
        return Number(low) > 0 && Number(low);
      },
      { timeoutMs: 10_000, what: "retention deleting the oldest segments" },
    );
    await admin.setOffsets({ groupId: "behind", topic: TOPIC, partitions: [{ partition: 0, offset: "0" }] });
    const member = await startMember(context, "behind");
    await eventually(() => member.read.at(-1)?.offset === 39, { timeoutMs: 10_000, what: "the records retention kept read to the end" });
    // Retention may trim further while the member starts: it reads on, without a gap, from wherever the log began.
    const first = member.read[0].offset;
    assert.ok(first >= start, `read from offset ${first}, at or after the log start ${start} seen before`);
    assert.equal(member.read.map((record) => record.offset), Array.from({ length: 40 - first }, (_, i) => first + i));
    assert.equal(member.failures, []);
  } finally {
    await Promise.all(context.members.map((member) => member.consumer.stop()));
    await context.broker.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

brokerChanges.run();
