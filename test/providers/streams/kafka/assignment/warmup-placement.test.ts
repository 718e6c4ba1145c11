import { suite } from "uvu";
import * as assert from "uvu/assert";
import { WordCountProvider } from "../../../../../providers/examples";
import { lagOf, LATEST_OFFSET, offsetSumOf, placeWarmups } from "../../../../../providers/streams/kafka/assignment/warmup-placement";
import { standbyTasksOf, streamsAssignor, type HighAvailability } from "../../../../../providers/streams/kafka/assignment/streams-assignor";
import { buildTopology } from "../../../../../providers/streams/engine/build-topology";
import { applicationConfig } from "../../../../../providers/streams/streams-config";
import { decodeAssignment } from "../../../../../providers/kafka-protocol";

const test = suite("streams: warm-up replicas (KIP-441)");

const layout = (entries: Record<string, string[]>) => new Map(Object.entries(entries));
const settings = { maxWarmupReplicas: 2, acceptableRecoveryLag: 100 };

/** Lags by client, then task; a task a client is not listed for is stateless. */
const lags = (table: Record<string, Record<string, number>>) => (client: string, task: string) => table[client]?.[task];

test("offset sums and lags: LATEST_OFFSET has none; no state, or state past the changelogs' ends, lacks the whole changelog", () => {
  assert.is(offsetSumOf(["a", "b"], new Map([["a", 9], ["b", 19]])), 30);
  assert.is(offsetSumOf(["a", "b"], new Map([["a", 9]])), 10);
  assert.is(lagOf(LATEST_OFFSET, 5000), 0);
  assert.is(lagOf(undefined, 5000), 5000);
  assert.is(lagOf(4000, 5000), 1000);
  assert.is(lagOf(6000, 5000), 5000);
});

test("a caught-up owner keeps its task where the balance wants it elsewhere; the lagging client gets a warm-up", () => {
  // The sticky placement wants 0_1 on b, but b lags 5000 records behind on it; a runs it.
  const desired = layout({ a: ["0_0"], b: ["0_1"] });
  const lag = lags({ a: { "0_0": 0, "0_1": 0 }, b: { "0_0": 5000, "0_1": 5000 } });
  const { active, warmups } = placeWarmups(desired, lag, new Map([["0_0", "a"], ["0_1", "a"]]), settings);
  assert.equal(Object.fromEntries(active), { a: ["0_0", "0_1"], b: [] });
  assert.equal(Object.fromEntries(warmups), { a: [], b: ["0_1"] });
});

test("a client caught up within acceptable.recovery.lag takes the task at once, with no warm-up", () => {
  const desired = layout({ a: ["0_0"], b: ["0_1"] });
  const lag = lags({ a: { "0_0": 0, "0_1": 0 }, b: { "0_0": 5000, "0_1": 100 } });
  const { active, warmups } = placeWarmups(desired, lag, new Map([["0_0", "a"], ["0_1", "a"]]), settings);
  assert.equal(Object.fromEntries(active), { a: ["0_0"], b: ["0_1"] });
  assert.equal(Object.fromEntries(warmups), { a: [], b: [] });
});

test("with a lagging previous owner the task goes to the most caught-up client; with none caught up, where the balance wants it", () => {
  const desired = layout({ a: ["0_0"], b: ["0_1"], c: [] });
  // 0_1: its owner a lags 500, c lags 40 (a standby), b 9000: c takes it. 0_0: nobody is caught up: a keeps it.
  const lag = lags({ a: { "0_0": 700, "0_1": 500 }, b: { "0_0": 9000, "0_1": 9000 }, c: { "0_0": 9000, "0_1": 40 } });
  const { active, warmups } = placeWarmups(desired, lag, new Map([["0_0", "a"], ["0_1", "a"]]), settings);
  assert.equal(Object.fromEntries(active), { a: ["0_0"], b: [], c: ["0_1"] });
  assert.equal(Object.fromEntries(warmups), { a: [], b: ["0_1"], c: [] });
});

test("at most max.warmup.replicas warm-ups over the whole group per rebalance; the tasks without one stay put too", () => {
  const desired = layout({ a: ["0_0", "0_1"], b: ["0_2", "0_3"], c: ["0_4", "0_5"] });
  const owner = new Map(["0_0", "0_1", "0_2", "0_3", "0_4", "0_5"].map((task) => [task, "a"]));
  const lag = (client: string) => (client === "a" ? 0 : 50_000);
  const { active, warmups } = placeWarmups(desired, lag, owner, settings);
  assert.equal(active.get("a"), ["0_0", "0_1", "0_2", "0_3", "0_4", "0_5"]);
  assert.equal([...warmups.values()].flat(), ["0_2", "0_3"]);
  assert.equal(placeWarmups(desired, lag, owner, { ...settings, maxWarmupReplicas: 3 }).warmups.get("c"), ["0_4"]);
});

test("stateless tasks have no lag: they go where the balance wants at once", () => {
  const desired = layout({ a: ["0_0", "1_0"], b: ["0_1", "1_1"] });
  const lag = lags({ a: { "1_0": 0, "1_1": 0 }, b: { "1_0": 50_000, "1_1": 50_000 } });
  const { active, warmups } = placeWarmups(desired, lag, new Map([["0_0", "a"], ["0_1", "a"], ["1_0", "a"], ["1_1", "a"]]), settings);
  assert.equal(Object.fromEntries(active), { a: ["0_0", "1_0", "1_1"], b: ["0_1"] });
  assert.equal(Object.fromEntries(warmups), { a: [], b: ["1_1"] });
});

// wordcount: sub-topology 0 splits lines (stateless), 1 counts into a logged store.
const wordcount = new WordCountProvider();
const topology = buildTopology(wordcount, applicationConfig([{ values: wordcount.config, source: "the test" }]));
const STATEFUL = ["1_0", "1_1", "1_2", "1_3"];

function highAvailability(endSum: number, probed?: (at: number | undefined) => void): HighAvailability {
  return {
    maxWarmupReplicas: 2,
    acceptableRecoveryLag: 10_000,
    probingRebalanceIntervalMs: 60_000,
    changelogEnds: async (tasks) => {
      assert.equal([...tasks].sort(), STATEFUL, "the leader asks the ends of the stateful tasks only");
      return new Map(tasks.map((task) => [task, endSum]));
    },
    probingRebalance: probed,
  };
}

/** A member as its own assignor subscribes: the tasks it ran, its offset sums (undefined: an older Sluice), the other tasks it has state of. */
const memberOf = (memberId: string, previousTasks: string[], taskOffsetSums?: Record<string, number>, localTasks?: string[]) => ({
  memberId,
  metadata: streamsAssignor(topology, null, 0, undefined, () => ({ previousTasks, taskOffsetSums, localTasks }), memberId, highAvailability(0)).subscription(),
});

/** Member → its active task ids and its standbys (warm-ups), from the leader's assignments. */
function layoutOf(assignments: Map<string, Buffer>): Record<string, { active: string[]; standby: string[] }> {
  return Object.fromEntries(
    [...assignments].map(([member, assignment]) => {
      const tasks = new Set<string>();
      for (const [topic, partitions] of Object.entries(decodeAssignment(assignment))) for (const partition of partitions) tasks.add(`${topology.subTopologyOfTopic(topic)}_${partition}`);
      return [member, { active: [...tasks].sort(), standby: standbyTasksOf(assignment).sort() }];
    }),
  );
}

const ALL = ["0_0", "0_1", "0_2", "0_3", ...STATEFUL];
const running = Object.fromEntries(STATEFUL.map((task) => [task, LATEST_OFFSET]));

test("the assignor: a new empty instance gets half the stateless tasks at once and warm-ups of the stateful ones; the members are told to probe", async () => {
  let probe: number | undefined;
  const leader = streamsAssignor(topology, null, 0, undefined, undefined, "a", highAvailability(50_000, (at) => (probe = at)));
  const before = Date.now();
  const assignments = await leader.assign([memberOf("a", ALL, running), memberOf("b", [], {})], () => 4);
  const placed = layoutOf(assignments);
  assert.equal(placed.a, { active: ["0_0", "0_1", ...STATEFUL], standby: [] });
  assert.equal(placed.b.active, ["0_2", "0_3"]);
  assert.is(placed.b.standby.length, 2);
  leader.partitionsOf(assignments.get("b")!);
  assert.ok(probe !== undefined && probe >= before + 60_000 && probe <= Date.now() + 60_000, `probing rebalance at ${probe}`);

  // The probing rebalance: b's warm-ups caught up (its offset sums within 10000 of the ends), the others not.
  const warm = Object.fromEntries(placed.b.standby.map((task) => [task, 45_000]));
  const next = layoutOf(await leader.assign([memberOf("a", placed.a.active, running), memberOf("b", placed.b.active, warm)], () => 4));
  assert.equal(next.b.active.filter((task) => task.startsWith("1_")), placed.b.standby, "the caught-up warm-ups take their tasks over");
  assert.is(next.a.active.filter((task) => task.startsWith("1_")).length, 2);
  assert.equal(next.b.standby, [], "nothing left to warm up: the balance is reached");
  leader.partitionsOf(assignments.get("a")!);
  leader.partitionsOf((await leader.assign([memberOf("a", next.a.active, running), memberOf("b", next.b.active, running)], () => 4)).get("a")!);
  assert.is(probe, undefined, "no warm-ups, no probing rebalance");
});

test("the assignor: an instance back from a crash gets the tasks its state is current on at once; stale state on disk draws no task", async () => {
  // b ran 1_0 and 1_1 until it was killed; a took them over meanwhile. b also has the state of 1_2 and 1_3 on disk,
  // closed empty when a brief first assignment moved them on long ago.
  const leader = streamsAssignor(topology, null, 0, undefined, undefined, "a", highAvailability(50_000));
  const back = { "1_0": 49_990, "1_1": 49_995, "1_2": 0, "1_3": 0 };
  const placed = layoutOf(await leader.assign([memberOf("a", ALL, running), memberOf("b", [], back, ALL)], () => 4));
  assert.equal(placed.b, { active: ["0_2", "0_3", "1_0", "1_1"], standby: [] });
  assert.equal(placed.a, { active: ["0_0", "0_1", "1_2", "1_3"], standby: [] });
});

test("the assignor: small changelogs (within acceptable.recovery.lag) move at once; without offset sums, or ends, tasks are placed as before", async () => {
  const small = streamsAssignor(topology, null, 0, undefined, undefined, "a", highAvailability(5_000));
  const moved = layoutOf(await small.assign([memberOf("a", ALL, running), memberOf("b", [], {})], () => 4));
  assert.is(moved.b.active.length, 4);
  assert.equal(moved.b.standby, []);
  const mixed = streamsAssignor(topology, null, 0, undefined, undefined, "a", highAvailability(50_000));
  const old = layoutOf(await mixed.assign([memberOf("a", ALL, running), memberOf("b", [])], () => 4));
  assert.is(old.b.active.length, 4);
  assert.equal(old.b.standby, []);
  const unreadable = streamsAssignor(topology, null, 0, undefined, undefined, "a", { ...highAvailability(50_000), changelogEnds: async () => undefined });
  const blind = layoutOf(await unreadable.assign([memberOf("a", ALL, running), memberOf("b", [], {})], () => 4));
  assert.is(blind.b.active.length, 4);
  assert.equal(blind.b.standby, []);
});

test.run();
