import { suite } from "uvu";
import * as assert from "uvu/assert";
import { partitionKey, rangeAssignor, uniformAssignor, type AssignorMember, type GroupAssignment } from "../../../../providers/broker/group/server-assignors";

const test = suite("broker: the consumer group protocol's server-side assignors");

const member = (memberId: string, topics: string[], previous: Iterable<string> = []): AssignorMember => ({ memberId, subscribedTopicIds: new Set(topics), previous: new Set(previous) });
const partitionsOf = (assignment: GroupAssignment, memberId: string) => [...assignment.get(memberId)!].sort();
const keys = (topicId: string, ...partitions: number[]) => partitions.map((partition) => partitionKey(topicId, partition)).sort();

test("uniform: every partition once, the members within one of each other", () => {
  const assignment = uniformAssignor.assign([member("a", ["t"]), member("b", ["t"]), member("c", ["t"])], [{ topicId: "t", partitions: 7 }]);
  const all = [...assignment.values()].flatMap((set) => [...set]).sort();
  assert.equal(all, keys("t", 0, 1, 2, 3, 4, 5, 6));
  assert.equal([...assignment.values()].map((set) => set.size).sort(), [2, 2, 3]);
});

test("uniform: a joining member takes partitions from the others, who keep the rest of theirs", () => {
  const before = uniformAssignor.assign([member("a", ["t"]), member("b", ["t"])], [{ topicId: "t", partitions: 6 }]);
  const after = uniformAssignor.assign([member("a", ["t"], before.get("a")), member("b", ["t"], before.get("b")), member("c", ["t"])], [{ topicId: "t", partitions: 6 }]);
  assert.equal([...after.values()].map((set) => set.size), [2, 2, 2]);
  for (const id of ["a", "b"]) assert.ok(partitionsOf(after, id).every((key) => before.get(id)!.has(key)), `${id} only lost partitions`);
});

test("uniform: a member gets only partitions of the topics it subscribes to", () => {
  const assignment = uniformAssignor.assign([member("a", ["t", "u"]), member("b", ["u"])], [{ topicId: "t", partitions: 2 }, { topicId: "u", partitions: 2 }]);
  assert.ok(partitionsOf(assignment, "b").every((key) => key.startsWith("u:")));
  assert.equal([...assignment.values()].map((set) => set.size), [2, 2]);
});

test("range: contiguous ranges per topic, the first members one more", () => {
  const assignment = rangeAssignor.assign([member("b", ["t"]), member("a", ["t"])], [{ topicId: "t", partitions: 5 }]);
  assert.equal(partitionsOf(assignment, "a"), keys("t", 0, 1, 2));
  assert.equal(partitionsOf(assignment, "b"), keys("t", 3, 4));
});

test.run();
