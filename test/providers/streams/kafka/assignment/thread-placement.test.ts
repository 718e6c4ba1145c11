import { suite } from "uvu";
import * as assert from "uvu/assert";
import { WordCountProvider } from "../../../../../providers/examples";
import { clientsOf, placeOverThreads } from "../../../../../providers/streams/kafka/assignment/process-placement";
import { GroupInstances } from "../../../../../providers/streams/kafka/assignment/group-instances";
import { decodeGroupMembers, standbyTasksOf, streamsAssignor } from "../../../../../providers/streams/kafka/assignment/streams-assignor";
import { buildTopology } from "../../../../../providers/streams/engine/build-topology";
import { applicationConfig } from "../../../../../providers/streams/streams-config";
import { decodeAssignment } from "../../../../../providers/kafka-protocol";
import type { ClusterAdmin } from "../../../../../providers/kafka-client";

const test = suite("streams: tasks over instances, then over their stream threads");

const wordcount = new WordCountProvider();
const topology = buildTopology(wordcount, applicationConfig([{ values: wordcount.config, source: "the test" }]));

/** A member of instance `processId` (a stream thread of it) that held `previousTasks`, as its own assignor subscribes. */
const memberOf = (memberId: string, processId: string | undefined, server: string | null = null, previousTasks: string[] = []) => ({
  memberId,
  metadata: streamsAssignor(topology, server, 0, undefined, () => ({ previousTasks }), processId).subscription(),
});

/** Member → its active task ids, from the assignments the leader made. */
function tasksOf(assignments: Map<string, Buffer>): Record<string, string[]> {
  const subOf = (topic: string) => topology.subTopologyOfTopic(topic)!;
  return Object.fromEntries(
    [...assignments].map(([member, assignment]) => {
      const tasks = new Set<string>();
      for (const [topic, partitions] of Object.entries(decodeAssignment(assignment))) for (const partition of partitions) tasks.add(`${subOf(topic)}_${partition}`);
      return [member, [...tasks].sort()];
    }),
  );
}

test("members sharing a process id are one client; a member without one is a client of its own", () => {
  const clients = clientsOf([{ memberId: "b2", processId: "B" }, { memberId: "a1", processId: "A" }, { memberId: "b1", processId: "B" }, { memberId: "old" }]);
  assert.equal(Object.fromEntries(clients), { A: ["a1"], B: ["b1", "b2"], "member:old": ["old"] });
});

test("a client's tasks are spread over its threads, each kept with the thread that held it; a thread with none still gets a list", () => {
  const clients = new Map([["A", ["a1", "a2", "a3"]]]);
  const fresh = placeOverThreads(clients, new Map([["A", ["0_0", "0_1", "1_0", "1_1"]]]), (memberId) => ({ memberId, previousTasks: [] }));
  assert.equal([...fresh.values()].map((tasks) => tasks.length).sort(), [1, 1, 2]);
  assert.equal([...fresh.values()].flat().sort(), ["0_0", "0_1", "1_0", "1_1"]);
  const held: Record<string, string[]> = { a1: ["1_1"], a2: ["0_0", "0_1"], a3: [] };
  const sticky = placeOverThreads(clients, new Map([["A", ["0_0", "0_1", "1_0", "1_1"]]]), (memberId) => ({ memberId, previousTasks: held[memberId] }));
  assert.equal(Object.fromEntries(sticky), { a1: ["1_1"], a2: ["0_0", "0_1"], a3: ["1_0"] });
  assert.equal(Object.fromEntries(placeOverThreads(clients, new Map(), (memberId) => ({ memberId, previousTasks: [] }))), { a1: [], a2: [], a3: [] });
});

test("tasks balance across instances before threads: an instance of three threads gets no more tasks than one of one", async () => {
  // Four members: three threads of instance A, one of instance B. Per member, B's one thread would hold a quarter.
  const members = [memberOf("a1", "A"), memberOf("a2", "A"), memberOf("a3", "A"), memberOf("b1", "B")];
  const tasks = tasksOf(await streamsAssignor(topology, null).assign(members, () => 4));
  const ofA = [...tasks.a1, ...tasks.a2, ...tasks.a3];
  assert.is(ofA.length, 4);
  assert.is(tasks.b1.length, 4);
  assert.equal([...ofA, ...tasks.b1].sort(), ["0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2", "1_3"]);
  // Within A, spread over its three threads.
  assert.equal([tasks.a1.length, tasks.a2.length, tasks.a3.length].sort(), [1, 1, 2]);
});

test("an instance keeps its tasks on the threads that held them: a member joining another instance takes only its share", async () => {
  // Instance A's two threads held all eight tasks; instance B joins with one thread.
  const a1 = ["0_0", "0_2", "1_0", "1_2"];
  const a2 = ["0_1", "0_3", "1_1", "1_3"];
  const members = [memberOf("a1", "A", null, a1), memberOf("a2", "A", null, a2), memberOf("b1", "B")];
  const tasks = tasksOf(await streamsAssignor(topology, null).assign(members, () => 4));
  assert.is(tasks.b1.length, 4);
  // Nothing moves between A's threads: each keeps a subset of what it held.
  assert.ok(tasks.a1.every((task) => a1.includes(task)), JSON.stringify(tasks));
  assert.ok(tasks.a2.every((task) => a2.includes(task)), JSON.stringify(tasks));
  assert.is(tasks.a1.length + tasks.a2.length, 4);
});

test("a standby never lands on the instance of its active task, even on another thread of it", async () => {
  const members = [memberOf("a1", "A"), memberOf("a2", "A"), memberOf("b1", "B"), memberOf("b2", "B")];
  const assignments = await streamsAssignor(topology, null, 1).assign(members, () => 4);
  const active = tasksOf(assignments);
  const instanceOf = (member: string) => member[0];
  const activeOn = new Map<string, string>();
  for (const [member, tasks] of Object.entries(active)) for (const task of tasks) activeOn.set(task, instanceOf(member));
  const standbys = [...assignments].flatMap(([member, assignment]) => standbyTasksOf(assignment).map((task) => ({ member, task })));
  // wordcount: sub-topology 1 counts into a store; each of its four tasks has one standby, on the other instance.
  assert.equal(standbys.map(({ task }) => task).sort(), ["1_0", "1_1", "1_2", "1_3"]);
  for (const { member, task } of standbys) assert.is.not(instanceOf(member), activeOn.get(task), `${task}'s standby is on ${member}, of its active's instance`);
  // Each instance's standbys spread over its threads.
  for (const member of ["a1", "a2", "b1", "b2"]) assert.is(standbyTasksOf(assignments.get(member)!).length, 1, member);
});

test("the group's listing shows an instance once, with every thread's partitions, local when it shares the process id", async () => {
  const members = [memberOf("a1", "A", "host-a:1"), memberOf("a2", "A", "host-a:1"), memberOf("b1", "B", "host-b:1")];
  const assignments = await streamsAssignor(topology, null).assign(members, () => 2);
  const described = members.map(({ memberId, metadata }) => ({ memberId, clientId: memberId, clientHost: "h", metadata, assignment: assignments.get(memberId)! }));
  assert.equal(decodeGroupMembers(described as never).map((member) => member.processId), ["A", "A", "B"]);
  const admin = { describeGroup: async () => ({ state: "Stable", members: described }) } as unknown as ClusterAdmin;
  const instances = await new GroupInstances("wordcount", topology).list({ memberId: "a2", generationId: 1, processId: "A" }, admin);
  assert.equal(
    instances.map(({ server, isLocal }) => ({ server, isLocal })),
    [
      { server: "host-a:1", isLocal: true },
      { server: "host-b:1", isLocal: false },
    ],
  );
  const partitionsOf = (server: string) => instances.find((instance) => instance.server === server)!.assignments.flatMap(({ topic, partitions }) => partitions.map((partition) => `${topic}:${partition}`));
  const all = [...partitionsOf("host-a:1"), ...partitionsOf("host-b:1")].sort();
  assert.is(all.length, new Set(all).size, "no partition listed twice");
  assert.is(partitionsOf("host-a:1").length, partitionsOf("host-b:1").length);
});

test.run();
