import { suite } from "uvu";
import * as assert from "uvu/assert";
import { DefaultGroupCoordinator } from "../../../../providers/broker/group/default-group-coordinator";
import { ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import { formStableGroup, joinAll, joinRequest, memberRef, track, GROUP, byId } from "./group-requests";

const test = suite("group coordinator: offset commit validation");

const simpleCommit = (groupId = GROUP) => ({ groupId, generationId: -1, memberId: "", groupInstanceId: null });

test("a simple commit to an unknown group is allowed and leaves an Empty group behind", () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    assert.is(coordinator.validateOffsetCommit(simpleCommit()), ErrorCode.NONE);
    assert.equal(coordinator.list(), [{ groupId: GROUP, protocolType: "", groupState: "Empty" }]);
    assert.is(coordinator.validateOffsetCommit(simpleCommit()), ErrorCode.NONE);
  } finally {
    coordinator.close();
  }
});

test("a member commit to an unknown group is refused", () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    assert.is(coordinator.validateOffsetCommit({ ...simpleCommit(), generationId: 3, memberId: "m" }), ErrorCode.ILLEGAL_GENERATION);
    assert.is(coordinator.validateOffsetCommit({ ...simpleCommit(), memberId: "m" }), ErrorCode.UNKNOWN_MEMBER_ID);
    assert.equal(coordinator.list(), []);
  } finally {
    coordinator.close();
  }
});

test("a simple commit is refused while the group has members and allowed once they have left", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a] = await formStableGroup(coordinator, [joinRequest()]);
    assert.is(coordinator.validateOffsetCommit(simpleCommit()), ErrorCode.UNKNOWN_MEMBER_ID);
    coordinator.leave(GROUP, [byId(a.memberId)]);
    assert.is(coordinator.validateOffsetCommit(simpleCommit()), ErrorCode.NONE);
  } finally {
    coordinator.close();
  }
});

test("a member commit needs the current member and generation", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a] = await formStableGroup(coordinator, [joinRequest()]);
    assert.is(coordinator.validateOffsetCommit(memberRef(a)), ErrorCode.NONE);
    assert.is(coordinator.validateOffsetCommit(memberRef(a, { generationId: 2 })), ErrorCode.ILLEGAL_GENERATION);
    assert.is(coordinator.validateOffsetCommit(memberRef(a, { generationId: -1 })), ErrorCode.ILLEGAL_GENERATION);
    assert.is(coordinator.validateOffsetCommit(memberRef(a, { memberId: "made-up" })), ErrorCode.UNKNOWN_MEMBER_ID);
  } finally {
    coordinator.close();
  }
});

test("member commits are allowed while preparing a rebalance and refused while completing one", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a] = await formStableGroup(coordinator, [joinRequest()]);
    track(coordinator.join(joinRequest({ clientId: "newcomer" })));
    assert.is(coordinator.describe([GROUP])[0].groupState, "PreparingRebalance");
    assert.is(coordinator.validateOffsetCommit(memberRef(a)), ErrorCode.NONE);

    const [b] = await joinAll(coordinator, [joinRequest({ groupId: "second-group" })]);
    assert.is(coordinator.describe(["second-group"])[0].groupState, "CompletingRebalance");
    assert.is(coordinator.validateOffsetCommit(memberRef(b, { groupId: "second-group" })), ErrorCode.REBALANCE_IN_PROGRESS);
  } finally {
    coordinator.close();
  }
});

test.run();
