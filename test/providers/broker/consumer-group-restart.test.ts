/**
 * A consumer protocol group (KIP-848) survives a broker restart on the same data dir, as Kafka's consumer group
 * records survive a coordinator failover: its members heartbeat on with their epochs and assignments and no new group
 * epoch; a member that does not come back is removed after its session and the other takes its partitions; a group
 * its members left comes back Empty, and a deleted one does not come back.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startBroker, type RunningBroker } from "../../../providers/broker";
import { ErrorCode } from "../../../providers/kafka-protocol/error-codes";
import { ConsumerGroupDescribe } from "../../../providers/kafka-protocol/messages/consumer-group-describe";
import { ConsumerGroupHeartbeat } from "../../../providers/kafka-protocol/messages/consumer-group-heartbeat";
import { CreateTopics } from "../../../providers/kafka-protocol/messages/create-topics";
import { DeleteGroups } from "../../../providers/kafka-protocol/messages/delete-groups";
import { eventually } from "../../helpers/eventually";
import { RawKafkaClient } from "./raw-kafka-client";

const GROUP = "restart-consumers";
const TOPIC = "restart-consumer-events";
const SESSION_MS = 2_000;

interface Member {
  memberId: string;
  epoch: number;
  /** What it owns: topic id → partitions. */
  owned: { topicId: string; partitions: number[] }[];
}

interface Context {
  dataDir: string;
  brokers: RunningBroker[];
  clients: RawKafkaClient[];
}

const test = suite<Context>("broker: consumer protocol groups across a restart");

test.before.each(async (context) => {
  context.dataDir = await mkdtemp(join(tmpdir(), "sluice-consumer-group-restart-"));
  context.brokers = [];
  context.clients = [];
});

test.after.each(async ({ dataDir, brokers, clients }) => {
  for (const client of clients) client.close();
  for (const broker of brokers) await broker.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A file-storage broker on `port` (0: an ephemeral one; a restart passes the first one's), with a client. */
async function start(context: Context, port = 0): Promise<{ broker: RunningBroker; client: RawKafkaClient }> {
  const broker = await startBroker({
    port,
    storage: "file",
    dataDir: context.dataDir,
    autoCreateTopics: false,
    consumerGroupSessionTimeoutMs: SESSION_MS,
    consumerGroupHeartbeatIntervalMs: 100,
  });
  context.brokers.push(broker);
  const client = await RawKafkaClient.connect(broker.port);
  context.clients.push(client);
  return { broker, client };
}

async function restart(context: Context, broker: RunningBroker): Promise<RawKafkaClient> {
  const port = broker.port;
  await broker.close();
  return (await start(context, port)).client;
}

/** A join (epoch 0) with its subscription, or a heartbeat reporting what the member owns; learns its epoch and assignment. */
async function beat(client: RawKafkaClient, member: Member) {
  const joining = member.epoch === 0;
  const answer = await client.request(ConsumerGroupHeartbeat, 1, {
    groupId: GROUP,
    memberId: member.memberId,
    memberEpoch: member.epoch,
    rebalanceTimeoutMs: joining ? SESSION_MS : -1,
    subscribedTopicNames: joining ? [TOPIC] : null,
    topicPartitions: joining ? [] : member.owned,
  });
  if (answer.errorCode === ErrorCode.NONE) {
    member.epoch = answer.memberEpoch;
    if (answer.assignment !== null) member.owned = answer.assignment.topicPartitions.map(({ topicId, partitions }) => ({ topicId, partitions: [...partitions].sort() }));
  }
  return answer;
}

const ownedCount = (member: Member) => member.owned.reduce((sum, { partitions }) => sum + partitions.length, 0);

async function describe(client: RawKafkaClient) {
  const [group] = (await client.request(ConsumerGroupDescribe, 0, { groupIds: [GROUP], includeAuthorizedOperations: false })).groups;
  return group;
}

/** Two members that share the topic's four partitions, two each, in a Stable group. */
async function stableGroupOfTwo(client: RawKafkaClient): Promise<Member[]> {
  const created = await client.request(CreateTopics, 4, { topics: [{ name: TOPIC, numPartitions: 4, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 5_000, validateOnly: false });
  assert.is(created.topics[0].errorCode, ErrorCode.NONE, "topic created");
  const members: Member[] = ["member-a", "member-b"].map((memberId) => ({ memberId, epoch: 0, owned: [] }));
  await eventually(
    async () => {
      for (const member of members) assert.is((await beat(client, member)).errorCode, ErrorCode.NONE);
      return members.every((member) => ownedCount(member) === 2) && (await describe(client)).groupState === "Stable";
    },
    { timeoutMs: 10_000, intervalMs: 50, what: "the two members stable with two partitions each" },
  );
  return members;
}

test("after a restart on the same data dir, the members heartbeat on with their epochs and assignments, and no new group epoch", async (context) => {
  const { broker, client } = await start(context);
  const members = await stableGroupOfTwo(client);
  const before = await describe(client);

  const after = await restart(context, broker);
  for (const member of members) {
    const { epoch, owned } = member;
    const answer = await beat(after, member);
    assert.equal([answer.errorCode, answer.memberEpoch], [ErrorCode.NONE, epoch], `${member.memberId} is known with its epoch`);
    assert.equal(member.owned, owned, `${member.memberId} keeps its partitions`);
  }
  const described = await describe(after);
  assert.equal([described.groupState, described.groupEpoch, described.assignmentEpoch], ["Stable", before.groupEpoch, before.assignmentEpoch]);
  const assignments = (group: typeof described) => group.members.map(({ memberId, memberEpoch, assignment }) => ({ memberId, memberEpoch, assignment })).sort((a, b) => a.memberId.localeCompare(b.memberId));
  assert.equal(assignments(described), assignments(before));
});

test("a member that does not come back after a restart is removed after its session, and the other takes its partitions", async (context) => {
  const { broker, client } = await start(context);
  const [present, absent] = await stableGroupOfTwo(client);
  const epochBefore = (await describe(client)).groupEpoch;

  const after = await restart(context, broker);
  const startedAt = Date.now();
  await eventually(
    async () => {
      assert.is((await beat(after, present)).errorCode, ErrorCode.NONE, "the member that came back is known");
      return ownedCount(present) === 4;
    },
    { timeoutMs: 4 * SESSION_MS, intervalMs: 100, what: "the absent member removed and its partitions given to the other" },
  );
  assert.ok(Date.now() - startedAt >= SESSION_MS - 300, "not before the absent member's session timeout");
  const described = await describe(after);
  assert.equal(described.members.map(({ memberId }) => memberId), [present.memberId], "only the member that came back");
  assert.ok(described.groupEpoch > epochBefore, "a new group epoch for the removal");
  assert.is((await beat(after, absent)).errorCode, ErrorCode.UNKNOWN_MEMBER_ID, "the removed member is unknown");
});

test("a group its members left comes back Empty; once deleted it does not come back", async (context) => {
  const { broker, client } = await start(context);
  const members = await stableGroupOfTwo(client);
  for (const member of members) assert.is((await beat(client, { ...member, epoch: -1 })).errorCode, ErrorCode.NONE, "left");

  const after = await restart(context, broker);
  const empty = await describe(after);
  assert.equal([empty.errorCode, empty.groupState, empty.members], [ErrorCode.NONE, "Empty", []]);
  const deleted = await after.request(DeleteGroups, 2, { groupsNames: [GROUP] });
  assert.is(deleted.results[0].errorCode, ErrorCode.NONE);

  const again = await restart(context, context.brokers[context.brokers.length - 1]);
  assert.is((await describe(again)).errorCode, ErrorCode.GROUP_ID_NOT_FOUND);
});

test.run();
