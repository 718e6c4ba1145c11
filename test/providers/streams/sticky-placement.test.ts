import { suite } from "uvu";
import * as assert from "uvu/assert";
import { placeTasks, withholdOwned, type PlacementMember } from "../../../providers/streams/kafka/assignment/sticky-placement";
import { streamsAssignor } from "../../../providers/streams/kafka/assignment/streams-assignor";
import { WordCountProvider } from "../../../providers/examples";
import { applicationConfig } from "../../../providers/streams/streams-config";
import { buildTopology } from "../../../providers/streams/engine/build-topology";

const test = suite("streams: sticky task placement");

const tasksOf = (subTopologies: number, partitions: number) => Array.from({ length: subTopologies }, (_, sub) => Array.from({ length: partitions }, (_, partition) => `${sub}_${partition}`)).flat();
const member = (memberId: string, previousTasks: string[] = []): PlacementMember => ({ memberId, previousTasks });
const counts = (placement: Map<string, string[]>) => [...placement.values()].map((tasks) => tasks.length).sort();
const everyTaskOnce = (placement: Map<string, string[]>, tasks: string[]) => assert.equal([...placement.values()].flat().sort(), [...tasks].sort());
/** How many tasks changed owner from `before` to `after`. */
function moved(before: Map<string, string[]>, after: Map<string, string[]>): number {
  const owner = new Map([...before].flatMap(([id, tasks]) => tasks.map((task) => [task, id] as const)));
  return [...after].flatMap(([id, tasks]) => tasks.filter((task) => owner.has(task) && owner.get(task) !== id)).length;
}
const previous = (placement: Map<string, string[]>) => [...placement].map(([id, tasks]) => member(id, tasks));

test("a fresh group: each sub-topology's tasks spread over the members, counts within one", () => {
  const tasks = tasksOf(2, 4);
  const placement = placeTasks(tasks, [member("b"), member("a")]);
  assert.equal(placement.get("a"), ["0_0", "0_2", "1_0", "1_2"]);
  assert.equal(placement.get("b"), ["0_1", "0_3", "1_1", "1_3"]);
  const three = placeTasks(tasks, [member("a"), member("b"), member("c")]);
  everyTaskOnce(three, tasks);
  assert.equal(counts(three), [2, 3, 3]);
});

test("the same members with the same tasks: nothing moves, whatever the members' order", () => {
  const tasks = tasksOf(2, 5);
  const first = placeTasks(tasks, [member("a"), member("b"), member("c")]);
  const again = placeTasks(tasks, previous(first).reverse());
  assert.equal(again, first);
});

test("a member joins: only the tasks its share needs move to it, none between the others", () => {
  const tasks = tasksOf(2, 6);
  const two = placeTasks(tasks, [member("a"), member("b")]);
  const three = placeTasks(tasks, [...previous(two), member("c")]);
  everyTaskOnce(three, tasks);
  assert.equal(counts(three), [4, 4, 4]);
  assert.is(moved(two, three), 4);
  // What a and b still hold they held before.
  for (const id of ["a", "b"]) for (const task of three.get(id)!) assert.ok(two.get(id)!.includes(task), `${task} stays with ${id}`);
});

test("a member joins whose order sorts first: the others' tasks still stay", () => {
  const tasks = tasksOf(1, 4);
  const two = placeTasks(tasks, [member("m"), member("n")]);
  const three = placeTasks(tasks, [member("a"), ...previous(two)]);
  assert.equal(counts(three), [1, 1, 2]);
  assert.is(moved(two, three), 1);
  assert.is(three.get("a")!.length, 1);
});

test("a member that keeps part of its tasks keeps some of every sub-topology", () => {
  const tasks = tasksOf(2, 4);
  const placement = placeTasks(tasks, [member("a", tasks), member("b")]);
  assert.equal(placement.get("a"), ["0_0", "0_1", "1_0", "1_1"]);
  assert.equal(placement.get("b"), ["0_2", "0_3", "1_2", "1_3"]);
});

test("a member leaves: its tasks spread over the others, theirs stay", () => {
  const tasks = tasksOf(2, 3);
  const three = placeTasks(tasks, [member("a"), member("b"), member("c")]);
  const two = placeTasks(tasks, previous(three).filter(({ memberId }) => memberId !== "b"));
  everyTaskOnce(two, tasks);
  assert.equal(counts(two), [3, 3]);
  // Only the leaver's tasks change owner.
  assert.is(moved(three, two), three.get("b")!.length);
  for (const id of ["a", "c"]) for (const task of three.get(id)!) assert.ok(two.get(id)!.includes(task));
});

test("new tasks (more partitions) go where there is room; gone tasks are forgotten", () => {
  const before = placeTasks(tasksOf(1, 4), [member("a"), member("b")]);
  const grown = placeTasks(tasksOf(1, 6), previous(before));
  assert.equal(counts(grown), [3, 3]);
  assert.is(moved(before, grown), 0);
  const shrunk = placeTasks(tasksOf(1, 2), previous(grown));
  everyTaskOnce(shrunk, tasksOf(1, 2));
  assert.equal(counts(shrunk), [1, 1]);
});

test("an unbalanced previous layout is balanced, moving the fewest tasks", () => {
  const tasks = tasksOf(1, 6);
  const placement = placeTasks(tasks, [member("a", tasks), member("b"), member("c")]);
  assert.equal(counts(placement), [2, 2, 2]);
  assert.equal(placement.get("a"), ["0_0", "0_1"]);
  // One task more than the floor goes to the member that kept the most.
  const odd = placeTasks(tasksOf(1, 7), [member("a", ["0_0"]), member("b", ["0_1", "0_2", "0_3", "0_4"]), member("c")]);
  assert.equal(odd.get("b"), ["0_1", "0_2", "0_3"]);
  assert.equal(counts(odd), [2, 2, 3]);
});

test("a task no member ran goes to a member with its state on disk, where there is room", () => {
  const tasks = tasksOf(1, 4);
  // b restarted: it runs nothing, but has the state of 0_2 and 0_3 on disk; a ran 0_0 and 0_1.
  const placement = placeTasks(tasks, [member("a", ["0_0", "0_1"]), { memberId: "b", previousTasks: [], localTasks: ["0_3", "0_2"] }]);
  assert.equal(placement.get("b"), ["0_2", "0_3"]);
  // A running owner wins over state on disk; a full member's state on disk does not count.
  const owned = placeTasks(tasks, [member("a", ["0_0", "0_1", "0_2"]), { memberId: "b", previousTasks: [], localTasks: ["0_2", "0_3"] }, { memberId: "c", previousTasks: ["0_3"], localTasks: ["0_0"] }]);
  assert.equal(owned, new Map([["a", ["0_0", "0_1"]], ["b", ["0_2"]], ["c", ["0_3"]]]));
});

test("a member that must give tasks up gives up first those another member has on disk, keeping sub-topologies spread", () => {
  // a took over everything while b was down; b is back with the state of 1_0 and 1_1 (its counting tasks) on disk.
  const tasks = tasksOf(2, 4);
  const placement = placeTasks(tasks, [member("a", tasks), { memberId: "b", previousTasks: [], localTasks: ["1_1", "1_0"] }]);
  assert.equal(placement.get("b"), ["0_2", "0_3", "1_0", "1_1"]);
  assert.equal(placement.get("a"), ["0_0", "0_1", "1_2", "1_3"]);
  // Without state on disk anywhere, a keeps each sub-topology's first partitions.
  assert.equal(placeTasks(tasks, [member("a", tasks), member("b")]).get("b"), ["0_2", "0_3", "1_2", "1_3"]);
});

test("a task two members claim stays with one of them; more members than tasks leave some idle", () => {
  const placement = placeTasks(["0_0", "0_1"], [member("b", ["0_0"]), member("a", ["0_0"]), member("c")]);
  assert.equal(placement.get("a"), ["0_0"]);
  everyTaskOnce(placement, ["0_0", "0_1"]);
  assert.equal(counts(placement), [0, 1, 1]);
  assert.equal(placeTasks(["0_0"], []), new Map());
});

test("cooperative: a task another member still owns is given to no one in this rebalance", () => {
  const placement = new Map([["a", ["0_0", "0_1"]], ["b", ["0_2", "0_3"]], ["c", ["0_4"]]]);
  const owned = new Map([["a", ["0_0", "0_1", "0_2"]], ["b", ["0_3", "0_4"]], ["c", []]]);
  assert.equal(withholdOwned(placement, owned), new Map([["a", ["0_0", "0_1"]], ["b", ["0_3"]], ["c", []]]));
  // Members that own nothing (eager ones, or new ones) withhold nothing.
  assert.equal(withholdOwned(placement, new Map()), placement);
});

test("the streams assignor keeps each member's previous tasks: a third member takes only its share", async () => {
  const wordcount = new WordCountProvider();
  const topology = buildTopology(wordcount, applicationConfig([{ values: wordcount.config, source: "the test" }]));
  const held = new Map<string, string[]>();
  const subscribe = (id: string) => ({ memberId: id, metadata: streamsAssignor(topology, `${id}:1`, 0, undefined, () => ({ previousTasks: held.get(id) ?? [] })).subscription() });
  const assignor = streamsAssignor(topology, null);
  const partitionCount = (topic: string) => (topology.sourceTopics().includes(topic) ? 4 : undefined);
  const assign = async (ids: string[]) => {
    const answer = await assignor.assign(ids.map(subscribe), partitionCount);
    const layout = new Map([...answer].map(([id, bytes]) => [id, assignor.partitionsOf(bytes)]));
    held.clear();
    for (const [id, partitions] of layout) {
      const tasks = new Set<string>();
      for (const [topic, list] of Object.entries(partitions)) for (const partition of list) tasks.add(`${topology.subTopologyOfTopic(topic)}_${partition}`);
      held.set(id, [...tasks]);
    }
    return new Map(held);
  };
  const two = await assign(["x", "y"]);
  const three = await assign(["x", "y", "a"]);
  assert.is(moved(two, three), [...three.get("a")!].length);
  for (const id of ["x", "y"]) for (const task of three.get(id)!) assert.ok(two.get(id)!.includes(task), `${task} stays with ${id}`);
  assert.equal(counts(three).at(-1)! - counts(three)[0] <= 1, true);
});

test.run();
