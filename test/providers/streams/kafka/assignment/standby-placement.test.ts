import { suite } from "uvu";
import * as assert from "uvu/assert";
import { WordCountProvider } from "../../../../../providers/examples";
import { placeStandbys } from "../../../../../providers/streams/kafka/assignment/standby-placement";
import { decodeGroupMembers, standbyTasksOf, streamsAssignor } from "../../../../../providers/streams/kafka/assignment/streams-assignor";
import { buildTopology } from "../../../../../providers/streams/engine/build-topology";
import { applicationConfig } from "../../../../../providers/streams/streams-config";
import { encodeSubscription } from "../../../../../providers/kafka-protocol";

const test = suite("streams: where standby replicas go");

const layout = (entries: Record<string, string[]>) => new Map(Object.entries(entries));

/** Member → how many standbys it holds. */
const counts = (standbys: Map<string, string[]>) => Object.fromEntries([...standbys].map(([member, tasks]) => [member, tasks.length]));

test("no replicas: every member is listed with no standby", () => {
  assert.equal(Object.fromEntries(placeStandbys(layout({ a: ["0_0"], b: ["0_1"] }), 0)), { a: [], b: [] });
});

test("a standby never goes to the member that runs the task, nor twice to one member", () => {
  const active = layout({ a: ["0_0", "0_3", "1_0"], b: ["0_1", "1_1"], c: ["0_2", "1_2"] });
  const standbys = placeStandbys(active, 2);
  for (const [member, tasks] of standbys) {
    for (const task of tasks) assert.not.ok(active.get(member)!.includes(task), `${member} runs ${task} and holds its standby`);
    assert.is(new Set(tasks).size, tasks.length, `${member} holds a task's standby twice`);
  }
  // Two replicas of seven tasks over three members: each task has one standby on each member that does not run it.
  const all = [...standbys.values()].flat().sort();
  assert.equal(all, ["0_0", "0_0", "0_1", "0_1", "0_2", "0_2", "0_3", "0_3", "1_0", "1_0", "1_1", "1_1", "1_2", "1_2"]);
});

test("standbys spread evenly over the members", () => {
  const active = layout({ a: ["0_0", "0_3"], b: ["0_1", "0_4"], c: ["0_2", "0_5"] });
  assert.equal(counts(placeStandbys(active, 1)), { a: 2, b: 2, c: 2 });
  const twelve = layout({ a: ["0_0", "0_1", "0_2", "0_3"], b: ["0_4", "0_5", "0_6", "0_7"], c: ["0_8", "0_9", "0_10", "0_11"], d: [] });
  const spread = Object.values(counts(placeStandbys(twelve, 1)));
  assert.equal(spread, [3, 3, 3, 3]);
});

test("a single member holds no standby; more replicas than other members give each task one per other member", () => {
  assert.equal(Object.fromEntries(placeStandbys(layout({ a: ["0_0", "0_1"] }), 1)), { a: [] });
  assert.equal(Object.fromEntries(placeStandbys(layout({ a: ["0_0"], b: ["0_1"] }), 3)), { a: ["0_1"], b: ["0_0"] });
});

test("stateless tasks get no standby", () => {
  const standbys = placeStandbys(layout({ a: ["0_0", "1_0"], b: ["0_1", "1_1"] }), 1, (task) => task.startsWith("1_"));
  assert.equal(Object.fromEntries(standbys), { a: ["1_1"], b: ["1_0"] });
});

test("the streams assignor carries each member's standbys in its assignment's user data", async () => {
  const wordcount = new WordCountProvider();
  const topology = buildTopology(wordcount, applicationConfig([{ values: wordcount.config, source: "the test" }]));
  const assignor = streamsAssignor(topology, null, 1);
  const members = ["m1", "m2"].map((memberId) => ({ memberId, metadata: encodeSubscription(topology.sourceTopics(), null) }));
  const assignments = await assignor.assign(members, () => 2);
  const standbys = Object.fromEntries([...assignments].map(([member, assignment]) => [member, standbyTasksOf(assignment)]));
  // wordcount: sub-topology 0 splits lines (stateless), 1 counts into a store; two partitions each.
  assert.equal(standbys, { m1: ["1_1"], m2: ["1_0"] });
  let heard: string[] = [];
  const member = streamsAssignor(topology, null, 1, (tasks) => (heard = tasks));
  member.partitionsOf(assignments.get("m1")!);
  assert.equal(heard, ["1_1"]);
  const described = decodeGroupMembers([{ memberId: "m2", clientId: "c", clientHost: "h", metadata: members[1].metadata, assignment: assignments.get("m2")! } as never]);
  assert.equal(described[0].standbyTasks, ["1_0"]);
});

test.run();
