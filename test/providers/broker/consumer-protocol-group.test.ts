/**
 * The embedded broker's consumer group protocol (KIP-848), with Sluice's group consumer (`group.protocol=consumer`):
 * three members join and one leaves without a record lost or a partition owned twice, with every offset committed; a
 * static member comes back to its partitions; a member fenced for holding partitions past its rebalance timeout joins
 * again; a silent one is removed after the session timeout; the assignor named reaches the coordinator and an unknown
 * one is refused; a group is classic or consumer; the broker.group.consumer.* settings apply. Topic ids are kept across
 * a restart.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ErrorCode } from "../../../providers/kafka-protocol/error-codes";
import { ConsumerGroupDescribe } from "../../../providers/kafka-protocol/messages/consumer-group-describe";
import { ConsumerGroupHeartbeat } from "../../../providers/kafka-protocol/messages/consumer-group-heartbeat";
import { DescribeGroups } from "../../../providers/kafka-protocol/messages/describe-groups";
import { ListGroups } from "../../../providers/kafka-protocol/messages/list-groups";
import { Metadata } from "../../../providers/kafka-protocol/messages/metadata";
import { OffsetCommit } from "../../../providers/kafka-protocol/messages/offset-commit";
import { AddOffsetsToTxn } from "../../../providers/kafka-protocol/messages/add-offsets-to-txn";
import { InitProducerId } from "../../../providers/kafka-protocol/messages/init-producer-id";
import { TxnOffsetCommit } from "../../../providers/kafka-protocol/messages/txn-offset-commit";
import { eventually } from "../../helpers/eventually";
import { fencedMemberRejoins, PARTITIONS, Scenario, split, staticMemberComesBack, type ConsumerProtocolBed } from "../../helpers/consumer-protocol-members";
import { roundRobinAssignor } from "../kafka-client/round-robin-assignor";
import { startTestBroker, type TestBroker } from "./broker-test-kit";
import { RawKafkaClient } from "./raw-kafka-client";
import { brokerPort, runSluice } from "../../helpers/sluice-process";
import { stopProcess } from "../streams/wordcount-processes";

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
  const scenario = new Scenario(context.bed, "kip848-static", "kip848-static-group");
  context.scenarios.push(scenario);
  await staticMemberComesBack(scenario, 30_000);
});

test("a member that holds its partitions past its rebalance timeout is fenced, joins again with epoch 0, and loses no record", async (context) => {
  const scenario = new Scenario(context.bed, "kip848-fenced", "kip848-fenced-group");
  context.scenarios.push(scenario);
  await fencedMemberRejoins(scenario, 1_000, 30_000);
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

test("on the wire: Kafka's errors for bad heartbeats, epochs and commits; the group described, listed as consumer, and Dead to DescribeGroups", async (context) => {
  const scenario = await scenarioOf(context, "kip848-wire", "kip848-wire-group");
  const raw = await RawKafkaClient.connect(context.broker.broker.port);
  try {
    const beat = (fields: Partial<Parameters<typeof raw.request<typeof ConsumerGroupHeartbeat>>[2]>) =>
      raw.request(ConsumerGroupHeartbeat, 1, { groupId: scenario.group, memberId: "member-one", memberEpoch: 0, rebalanceTimeoutMs: 30_000, subscribedTopicNames: [scenario.topic], topicPartitions: [], ...fields });
    const noId = await beat({ memberId: "" });
    assert.equal([noId.errorCode, noId.errorMessage], [ErrorCode.INVALID_REQUEST, "MemberId can't be empty."]);
    assert.is((await beat({ rebalanceTimeoutMs: -1 })).errorCode, ErrorCode.INVALID_REQUEST);

    const joined = await beat({});
    assert.is(joined.errorCode, ErrorCode.NONE);
    assert.equal([joined.memberId, joined.memberEpoch, joined.heartbeatIntervalMs], ["member-one", 1, 200]);
    const topicId = joined.assignment!.topicPartitions[0].topicId;
    assert.equal(joined.assignment!.topicPartitions, [{ topicId, partitions: [0, 1, 2, 3, 4, 5] }]);
    assert.is((await beat({ memberEpoch: 7, topicPartitions: [] })).errorCode, ErrorCode.FENCED_MEMBER_EPOCH);
    assert.is((await beat({ memberId: "nobody", memberEpoch: 1 })).errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
    const steady = await beat({ memberEpoch: 1, topicPartitions: [{ topicId, partitions: [0, 1, 2, 3, 4, 5] }] });
    assert.equal([steady.errorCode, steady.memberEpoch], [ErrorCode.NONE, 1]);

    const commit = (generationId: number, version = 9) =>
      raw.request(OffsetCommit, version, { groupId: scenario.group, generationId, memberId: "member-one", groupInstanceId: null, topics: [{ name: scenario.topic, partitions: [{ partitionIndex: 0, committedOffset: 0n, committedMetadata: null }] }] });
    assert.is((await commit(1)).topics[0].partitions[0].errorCode, ErrorCode.NONE);
    assert.is((await commit(0)).topics[0].partitions[0].errorCode, ErrorCode.STALE_MEMBER_EPOCH);
    assert.is((await commit(1, 7)).topics[0].partitions[0].errorCode, ErrorCode.UNSUPPORTED_VERSION, "a member of the consumer group protocol commits with v9+");

    // A transactional commit names the member the same way, in any version.
    const producer = await raw.request(InitProducerId, 4, { transactionalId: "kip848-tx", transactionTimeoutMs: 60_000 });
    const transaction = { transactionalId: "kip848-tx", producerId: producer.producerId, producerEpoch: producer.producerEpoch };
    assert.is((await raw.request(AddOffsetsToTxn, 3, { ...transaction, groupId: scenario.group })).errorCode, ErrorCode.NONE);
    const txnCommit = async (generationId: number) =>
      (await raw.request(TxnOffsetCommit, 3, { ...transaction, groupId: scenario.group, generationId, memberId: "member-one", groupInstanceId: null, topics: [{ name: scenario.topic, partitions: [{ partitionIndex: 1, committedOffset: 0n, committedMetadata: null }] }] })).topics[0].partitions[0].errorCode;
    assert.is(await txnCommit(1), ErrorCode.NONE);
    assert.is(await txnCommit(0), ErrorCode.STALE_MEMBER_EPOCH);

    const [described] = (await raw.request(ConsumerGroupDescribe, 0, { groupIds: [scenario.group], includeAuthorizedOperations: false })).groups;
    assert.equal(
      { ...described, members: described.members.map(({ memberId, memberEpoch, subscribedTopicNames, assignment }) => ({ memberId, memberEpoch, subscribedTopicNames, assignment })) },
      {
        errorCode: ErrorCode.NONE,
        errorMessage: null,
        groupId: scenario.group,
        groupState: "Stable",
        groupEpoch: 1,
        assignmentEpoch: 1,
        assignorName: "uniform",
        members: [{ memberId: "member-one", memberEpoch: 1, subscribedTopicNames: [scenario.topic], assignment: { topicPartitions: [{ topicId, topicName: scenario.topic, partitions: [0, 1, 2, 3, 4, 5] }] } }],
        authorizedOperations: -2147483648,
      },
    );
    const [unknown] = (await raw.request(ConsumerGroupDescribe, 0, { groupIds: ["nonesuch"], includeAuthorizedOperations: false })).groups;
    assert.is(unknown.errorCode, ErrorCode.GROUP_ID_NOT_FOUND);
    const listed = await raw.request(ListGroups, 5, { statesFilter: [], typesFilter: ["consumer"] });
    assert.equal(listed.groups, [{ groupId: scenario.group, protocolType: "consumer", groupState: "Stable", groupType: "consumer" }]);
    const [classicView] = (await raw.request(DescribeGroups, 4, { groups: [scenario.group], includeAuthorizedOperations: false })).groups;
    assert.equal([classicView.errorCode, classicView.groupState], [ErrorCode.NONE, "Dead"], "DescribeGroups below v6 shows a consumer group as Dead, as Kafka does");

    const left = await beat({ memberEpoch: -1, topicPartitions: null, subscribedTopicNames: null });
    assert.equal([left.errorCode, left.memberEpoch], [ErrorCode.NONE, -1]);
    const empty = await raw.request(ListGroups, 5, { statesFilter: ["Empty"], typesFilter: [] });
    assert.equal(empty.groups.map(({ groupId, groupType }) => [groupId, groupType]), [[scenario.group, "consumer"]]);
  } finally {
    raw.close();
  }
});

/** A member of `groupId` joining with a raw heartbeat, subscribed to `topic`. */
async function rawJoin(client: RawKafkaClient, groupId: string, topic: string, serverAssignor: string | null = null) {
  return client.request(ConsumerGroupHeartbeat, 1, { groupId, memberId: "raw-member", memberEpoch: 0, rebalanceTimeoutMs: 10_000, subscribedTopicNames: [topic], serverAssignor, topicPartitions: [] });
}

test("a member silent past the session timeout is removed: its next heartbeat answers UNKNOWN_MEMBER_ID and the group is Empty", async () => {
  const broker = await startTestBroker({ consumerGroupSessionTimeoutMs: 300, consumerGroupHeartbeatIntervalMs: 100 });
  const raw = await RawKafkaClient.connect(broker.broker.port);
  try {
    assert.is((await rawJoin(raw, "silent-group", "silent-topic")).errorCode, ErrorCode.NONE);
    const stateOf = async () => (await raw.request(ConsumerGroupDescribe, 0, { groupIds: ["silent-group"], includeAuthorizedOperations: false })).groups[0].groupState;
    await eventually(async () => (await stateOf()) === "Empty", { timeoutMs: 10_000, what: "the silent member removed" });
    const late = await raw.request(ConsumerGroupHeartbeat, 1, { groupId: "silent-group", memberId: "raw-member", memberEpoch: 1, rebalanceTimeoutMs: -1, subscribedTopicNames: null, serverAssignor: null, topicPartitions: null });
    assert.is(late.errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
  } finally {
    raw.close();
    await broker.close();
  }
});

test("sluice broker: broker.group.consumer.* settings reach the coordinator; an unknown assignor name stops the start", async () => {
  const refused = runSluice(["broker", "--broker.port=0", "--broker.storage=memory", "--broker.group.consumer.assignors=nonesuch"]);
  assert.not.equal((await refused.exited).code, 0);
  assert.match(refused.stderr(), /broker\.group\.consumer\.assignors: nonesuch unknown; choose among uniform, range/);

  const broker = runSluice(["broker", "--broker.port=0", "--broker.storage=memory", "--broker.group.consumer.assignors=range", "--broker.group.consumer.heartbeat.interval.ms=321"]);
  try {
    const raw = await RawKafkaClient.connect(await brokerPort(broker));
    try {
      const joined = await rawJoin(raw, "configured-group", "configured-topic");
      assert.equal([joined.errorCode, joined.heartbeatIntervalMs], [ErrorCode.NONE, 321]);
      const uniform = await rawJoin(raw, "other-group", "configured-topic", "uniform");
      assert.equal([uniform.errorCode, uniform.errorMessage], [ErrorCode.UNSUPPORTED_ASSIGNOR, "ServerAssignor uniform is not supported. Supported assignors: range."]);
    } finally {
      raw.close();
    }
  } finally {
    await stopProcess(broker, "SIGTERM");
  }
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
