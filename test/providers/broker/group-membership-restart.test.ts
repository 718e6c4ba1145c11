/**
 * A classic group's membership survives a broker restart on the same data dir, as Kafka's GroupMetadata survives a
 * coordinator failover: the members heartbeat on in the same generation with the same assignment, and one that does
 * not come back is removed after its session timeout while the others rebalance.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startBroker, type RunningBroker } from "../../../providers/broker";
import { ErrorCode } from "../../../providers/kafka-protocol/error-codes";
import { DeleteGroups } from "../../../providers/kafka-protocol/messages/delete-groups";
import { DescribeGroups } from "../../../providers/kafka-protocol/messages/describe-groups";
import { Heartbeat } from "../../../providers/kafka-protocol/messages/heartbeat";
import { JoinGroup } from "../../../providers/kafka-protocol/messages/join-group";
import { LeaveGroup } from "../../../providers/kafka-protocol/messages/leave-group";
import { SyncGroup } from "../../../providers/kafka-protocol/messages/sync-group";
import { eventually } from "../../helpers/eventually";
import { RawKafkaClient } from "./raw-kafka-client";

const GROUP = "restart-survivors";
const SESSION_MS = 2_000;
/** Long enough for members that join together to land in one generation (Kafka's default is 3 s). */
const INITIAL_REBALANCE_DELAY_MS = 500;

interface Member {
  memberId: string;
  groupInstanceId: string | null;
  generationId: number;
  assignment: Buffer;
  isLeader: boolean;
}

const test = suite<{ dataDir: string; brokers: RunningBroker[]; clients: RawKafkaClient[] }>("broker: group membership across a restart");

test.before.each(async (context) => {
  context.dataDir = await mkdtemp(join(tmpdir(), "sluice-group-restart-"));
  context.brokers = [];
  context.clients = [];
});

test.after.each(async ({ dataDir, brokers, clients }) => {
  for (const client of clients) client.close();
  for (const broker of brokers) await broker.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A file-storage broker on `port` (0: an ephemeral one; a restart passes the first one's). */
async function start(context: { dataDir: string; brokers: RunningBroker[] }, port = 0): Promise<RunningBroker> {
  const broker = await startBroker({ port, storage: "file", dataDir: context.dataDir, initialRebalanceDelayMs: INITIAL_REBALANCE_DELAY_MS });
  context.brokers.push(broker);
  return broker;
}

async function connect(context: { clients: RawKafkaClient[] }, broker: RunningBroker): Promise<RawKafkaClient> {
  const client = await RawKafkaClient.connect(broker.port);
  context.clients.push(client);
  return client;
}

function joinBody(memberId: string, groupInstanceId: string | null) {
  return {
    groupId: GROUP,
    sessionTimeoutMs: SESSION_MS,
    rebalanceTimeoutMs: SESSION_MS,
    memberId,
    groupInstanceId,
    protocolType: "consumer",
    protocols: [{ name: "range", metadata: Buffer.from(`subscription-of-${groupInstanceId ?? "dynamic"}`) }],
  };
}

/** Joins (asking for a member id first when dynamic, as JoinGroup v4+ does) and returns the join answer. */
async function joinGroup(client: RawKafkaClient, groupInstanceId: string | null, memberId = "") {
  let joined = await client.request(JoinGroup, 5, joinBody(memberId, groupInstanceId));
  if (joined.errorCode === ErrorCode.MEMBER_ID_REQUIRED) joined = await client.request(JoinGroup, 5, joinBody(joined.memberId, groupInstanceId));
  assert.is(joined.errorCode, ErrorCode.NONE, "joined");
  return joined;
}

/** One generation of the given members: the leader assigns `assignment-<memberId>` to each. */
async function formGroup(clients: RawKafkaClient[], instanceIds: (string | null)[], memberIds: string[] = instanceIds.map(() => "")): Promise<Member[]> {
  const joined = await Promise.all(clients.map((client, i) => joinGroup(client, instanceIds[i], memberIds[i])));
  const leader = joined.find((j) => j.leader === j.memberId)!;
  const assignments = leader.members.map((m) => ({ memberId: m.memberId, assignment: Buffer.from(`assignment-${m.memberId}`) }));
  const synced = await Promise.all(
    clients.map((client, i) =>
      client.request(SyncGroup, 3, {
        groupId: GROUP,
        generationId: joined[i].generationId,
        memberId: joined[i].memberId,
        groupInstanceId: instanceIds[i],
        assignments: joined[i] === leader ? assignments : [],
      }),
    ),
  );
  return synced.map((s, i) => {
    assert.is(s.errorCode, ErrorCode.NONE, "synced");
    return { memberId: joined[i].memberId, groupInstanceId: instanceIds[i], generationId: joined[i].generationId, assignment: Buffer.from(s.assignment), isLeader: joined[i] === leader };
  });
}

async function heartbeat(client: RawKafkaClient, member: Member): Promise<number> {
  const { errorCode } = await client.request(Heartbeat, 3, { groupId: GROUP, generationId: member.generationId, memberId: member.memberId, groupInstanceId: member.groupInstanceId });
  return errorCode;
}

async function describe(client: RawKafkaClient) {
  const [group] = (await client.request(DescribeGroups, 4, { groups: [GROUP], includeAuthorizedOperations: false })).groups;
  return group;
}

test("after a restart on the same data dir, the members heartbeat on in the same generation with the same assignments", async (context) => {
  const first = await start(context);
  const before = await formGroup([await connect(context, first), await connect(context, first)], [null, "static-b"]);
  const port = first.port;
  await first.close();

  const second = await start(context, port);
  const [a, b] = [await connect(context, second), await connect(context, second)];
  assert.is(await heartbeat(a, before[0]), ErrorCode.NONE, "the dynamic member is known in its generation");
  assert.is(await heartbeat(b, before[1]), ErrorCode.NONE, "the static member is known in its generation");
  const described = await describe(a);
  assert.is(described.groupState, "Stable");
  assert.equal(described.members.map((m) => [m.memberId, m.groupInstanceId, Buffer.from(m.memberAssignment).toString()]).sort(), before.map((m) => [m.memberId, m.groupInstanceId, m.assignment.toString()]).sort());
  const synced = await a.request(SyncGroup, 3, { groupId: GROUP, generationId: before[0].generationId, memberId: before[0].memberId, groupInstanceId: null, assignments: [] });
  assert.equal([synced.errorCode, Buffer.from(synced.assignment).toString()], [ErrorCode.NONE, before[0].assignment.toString()], "the same assignment, no rebalance");
  // A follower's unchanged rejoin is answered with the current generation, as before the restart.
  const follower = before.find((m) => !m.isLeader)!;
  const rejoined = await joinGroup(follower.groupInstanceId === null ? a : b, follower.groupInstanceId, follower.memberId);
  assert.equal([rejoined.generationId, rejoined.memberId], [follower.generationId, follower.memberId]);
});

for (const absent of [0, 1]) {
  const who = absent === 0 ? "a dynamic member" : "a static member";
  test(`${who} that does not come back after a restart is removed after its session, and the other rebalances`, async (context) => {
    const first = await start(context);
    const instanceIds = [null, "static-b"];
    const before = await formGroup([await connect(context, first), await connect(context, first)], instanceIds);
    const port = first.port;
  await first.close();

    const second = await start(context, port);
    const present = 1 - absent;
    const client = await connect(context, second);
    const startedAt = Date.now();
    assert.is(await heartbeat(client, before[present]), ErrorCode.NONE);
    await eventually(async () => (await heartbeat(client, before[present])) === ErrorCode.REBALANCE_IN_PROGRESS, {
      timeoutMs: 4 * SESSION_MS,
      intervalMs: 200,
      what: "the absent member's session to expire and the group to rebalance",
    });
    assert.ok(Date.now() - startedAt >= SESSION_MS - 300, "not before the absent member's session timeout");
    const [after] = await formGroup([client], [instanceIds[present]], [before[present].memberId]);
    assert.is(after.generationId, before[present].generationId + 1);
    const described = await describe(client);
    assert.equal(described.members.map((m) => m.memberId), [before[present].memberId], "only the member that came back");
  });
}

test("a static member that rejoined with a new member id (a restart within its session) keeps that id across a broker restart", async (context) => {
  const first = await start(context);
  const [dynamic, staticClient] = [await connect(context, first), await connect(context, first)];
  const before = await formGroup([dynamic, staticClient], [null, "static-b"]);
  // The static member's process restarted: it joins again without its member id and takes its instance's membership.
  const replaced = await joinGroup(staticClient, "static-b");
  assert.is.not(replaced.memberId, before[1].memberId, "a new member id");
  assert.is(replaced.generationId, before[1].generationId, "no rebalance");
  const port = first.port;
  await first.close();

  const second = await start(context, port);
  const client = await connect(context, second);
  assert.is(await heartbeat(client, { ...before[1], memberId: replaced.memberId }), ErrorCode.NONE, "the new member id is the instance's after the restart");
  assert.is(await heartbeat(client, before[0]), ErrorCode.NONE, "the dynamic member goes on");
  const rejoined = await client.request(JoinGroup, 5, joinBody(replaced.memberId, "static-b"));
  // Not FENCED_INSTANCE_ID (a leader's rejoin may start a rebalance, as in Kafka: the generation is not asserted).
  assert.equal([rejoined.errorCode, rejoined.memberId], [ErrorCode.NONE, replaced.memberId], "its rejoin is not fenced");
});

test("a group its members left comes back Empty in its generation; once deleted it does not come back", async (context) => {
  const first = await start(context);
  const client = await connect(context, first);
  const [member] = await formGroup([client], [null]);
  const left = await client.request(LeaveGroup, 3, { groupId: GROUP, memberId: "", members: [{ memberId: member.memberId, groupInstanceId: null }] });
  assert.is(left.members[0].errorCode, ErrorCode.NONE);
  const port = first.port;
  await first.close();

  const second = await start(context, port);
  const again = await connect(context, second);
  assert.is((await describe(again)).groupState, "Empty");
  assert.is(await heartbeat(again, member), ErrorCode.UNKNOWN_MEMBER_ID, "the member that left stays gone");
  const rejoined = await joinGroup(again, null);
  assert.is(rejoined.generationId, member.generationId + 2, "the generation goes on from the stored one (the leave made one)");
  await again.request(LeaveGroup, 3, { groupId: GROUP, memberId: "", members: [{ memberId: rejoined.memberId, groupInstanceId: null }] });
  const deleted = await again.request(DeleteGroups, 2, { groupsNames: [GROUP] });
  assert.is(deleted.results[0].errorCode, ErrorCode.NONE);
  await second.close();

  const third = await start(context, port);
  assert.is((await describe(await connect(context, third))).groupState, "Dead", "a deleted group is unknown");
});

test.run();
