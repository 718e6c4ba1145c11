import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../../helpers/eventually";
import { DefaultGroupCoordinator } from "../../../../providers/broker/group/default-group-coordinator";
import { ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import { flushCallbacks, formStableGroup, joinRequest, memberRef, syncRequest, track, within, GROUP, byId } from "./group-requests";

const test = suite("group coordinator: rebalances");

test("a third member joining makes heartbeats answer REBALANCE_IN_PROGRESS until everyone rejoins a new generation", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const request = joinRequest();
    const [a, b] = await formStableGroup(coordinator, [request, request]);
    const third = track(coordinator.join(joinRequest({ clientId: "third" })));

    assert.is(coordinator.heartbeat(memberRef(a)), ErrorCode.REBALANCE_IN_PROGRESS);
    assert.is(coordinator.heartbeat(memberRef(b)), ErrorCode.REBALANCE_IN_PROGRESS);
    assert.is(coordinator.describe([GROUP])[0].groupState, "PreparingRebalance");

    const aRejoin = track(coordinator.join({ ...request, memberId: a.memberId }));
    await flushCallbacks();
    assert.not.ok(aRejoin.settled, "the join phase waits for b");
    const b2 = await within(coordinator.join({ ...request, memberId: b.memberId }));
    const [a2, c2] = await within(Promise.all([aRejoin.promise, third.promise]));

    for (const result of [a2, b2, c2]) {
      assert.is(result.errorCode, ErrorCode.NONE);
      assert.is(result.generationId, 2);
      assert.is(result.leader, a.memberId, "the leader keeps its role");
    }
    assert.equal(a2.members.map((m) => m.memberId), [a.memberId, b.memberId, c2.memberId]);
    assert.is(coordinator.heartbeat(memberRef(a)), ErrorCode.ILLEGAL_GENERATION, "the old generation is over");
    assert.is(coordinator.heartbeat(memberRef(a2)), ErrorCode.NONE);
  } finally {
    coordinator.close();
  }
});

test("a member that does not rejoin within the rebalance timeout is removed from the new generation", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const request = joinRequest({ rebalanceTimeoutMs: 80 });
    const [a, b] = await formStableGroup(coordinator, [request, request]);
    const third = track(coordinator.join({ ...request, clientId: "third" }));
    const a2 = await within(coordinator.join({ ...request, memberId: a.memberId }));
    const c2 = await within(third.promise);

    assert.is(a2.generationId, 2);
    assert.is(c2.generationId, 2);
    assert.equal(a2.members.map((m) => m.memberId), [a.memberId, c2.memberId]);
    assert.is(coordinator.heartbeat(memberRef(b)), ErrorCode.UNKNOWN_MEMBER_ID);
  } finally {
    coordinator.close();
  }
});

test("a new member's join is dropped when the join phase outlasts the new-member timeout", async () => {
  const coordinator = new DefaultGroupCoordinator({ newMemberJoinTimeoutMs: 50 });
  try {
    const [a] = await formStableGroup(coordinator, [joinRequest()]);
    const newcomer = await within(coordinator.join(joinRequest({ clientId: "newcomer" })));
    assert.is(newcomer.errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
    assert.is(coordinator.heartbeat(memberRef(a)), ErrorCode.REBALANCE_IN_PROGRESS, "the old member is still asked to rejoin");
    const a2 = await within(coordinator.join(joinRequest({ memberId: a.memberId })));
    assert.equal(a2.members.map((m) => m.memberId), [a.memberId]);
  } finally {
    coordinator.close();
  }
});

test("a leaving member makes the others rebalance, and the earliest remaining member leads", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const request = joinRequest();
    const [a, b, c] = await formStableGroup(coordinator, [request, request, request]);
    assert.equal(coordinator.leave(GROUP, [byId(a.memberId)]), [{ memberId: a.memberId, groupInstanceId: null, errorCode: ErrorCode.NONE }]);
    assert.is(coordinator.heartbeat(memberRef(b)), ErrorCode.REBALANCE_IN_PROGRESS);

    const [b2, c2] = await within(
      Promise.all([coordinator.join({ ...request, memberId: b.memberId }), coordinator.join({ ...request, memberId: c.memberId })]),
    );
    assert.is(b2.generationId, 2);
    assert.is(c2.leader, b.memberId);
    assert.equal(b2.members.map((m) => m.memberId), [b.memberId, c.memberId]);
  } finally {
    coordinator.close();
  }
});

test("a leave completes a join phase that was only waiting for the leaving member", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const request = joinRequest();
    const [a, b] = await formStableGroup(coordinator, [request, request]);
    const aRejoin = track(coordinator.join({ ...request, memberId: a.memberId }));
    await flushCallbacks();
    assert.not.ok(aRejoin.settled);
    coordinator.leave(GROUP, [byId(b.memberId)]);
    const a2 = await within(aRejoin.promise);
    assert.is(a2.generationId, 2);
    assert.equal(a2.members.map((m) => m.memberId), [a.memberId]);
  } finally {
    coordinator.close();
  }
});

test("the last member leaving empties the group and ends its generation", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a] = await formStableGroup(coordinator, [joinRequest()]);
    coordinator.leave(GROUP, [byId(a.memberId)]);
    assert.equal(coordinator.list(), [{ groupId: GROUP, protocolType: "consumer", groupState: "Empty" }]);
    assert.is(coordinator.heartbeat(memberRef(a)), ErrorCode.UNKNOWN_MEMBER_ID);
    const again = await within(coordinator.join(joinRequest()));
    assert.is(again.generationId, 3, "emptying the group spent generation 2");
  } finally {
    coordinator.close();
  }
});

test("a member whose session expires is removed and the others rebalance", async () => {
  const coordinator = new DefaultGroupCoordinator({ minSessionTimeoutMs: 10 });
  try {
    const request = joinRequest({ sessionTimeoutMs: 300 });
    const [a, b] = await formStableGroup(coordinator, [request, request]);
    // a keeps heartbeating; b stays silent.
    await eventually(() => coordinator.heartbeat(memberRef(a)) === ErrorCode.REBALANCE_IN_PROGRESS, {
      timeoutMs: 3_000,
      what: "b's session to expire",
    });
    assert.is(coordinator.heartbeat(memberRef(b)), ErrorCode.UNKNOWN_MEMBER_ID);
    const a2 = await within(coordinator.join({ ...request, memberId: a.memberId }));
    assert.is(a2.generationId, 2);
    assert.equal(a2.members.map((m) => m.memberId), [a.memberId]);
  } finally {
    coordinator.close();
  }
});

test("a session expiry while others wait for their assignment answers their syncs with REBALANCE_IN_PROGRESS", async () => {
  const coordinator = new DefaultGroupCoordinator({ minSessionTimeoutMs: 10 });
  try {
    const [leader, follower] = await within(
      Promise.all([coordinator.join(joinRequest({ sessionTimeoutMs: 200 })), coordinator.join(joinRequest({ sessionTimeoutMs: 10_000 }))]),
    );
    // The follower waits for an assignment the silent leader never sends.
    const followerSync = await within(coordinator.sync(syncRequest(follower)));
    assert.equal(followerSync, { errorCode: ErrorCode.REBALANCE_IN_PROGRESS, assignment: Buffer.alloc(0) });
    assert.is(coordinator.heartbeat(memberRef(leader)), ErrorCode.UNKNOWN_MEMBER_ID);
    assert.is(coordinator.heartbeat(memberRef(follower)), ErrorCode.REBALANCE_IN_PROGRESS);
  } finally {
    coordinator.close();
  }
});

test("a member waiting for its assignment outlives its session timeout", async () => {
  const coordinator = new DefaultGroupCoordinator({ minSessionTimeoutMs: 10 });
  try {
    const [leader, follower] = await within(
      Promise.all([coordinator.join(joinRequest({ sessionTimeoutMs: 10_000 })), coordinator.join(joinRequest({ sessionTimeoutMs: 150 }))]),
    );
    const followerSync = track(coordinator.sync(syncRequest(follower)));
    // A member of another group with a longer session, left silent, shows when the follower's session has passed.
    await formStableGroup(coordinator, [joinRequest({ groupId: "clock", sessionTimeoutMs: 250 })]);
    await eventually(() => coordinator.describe(["clock"])[0].members.length === 0, { timeoutMs: 3_000, what: "the clock member to expire" });
    assert.not.ok(followerSync.settled);

    await within(coordinator.sync(syncRequest(leader, [{ memberId: follower.memberId, assignment: Buffer.from("yours") }])));
    assert.equal(await within(followerSync.promise), { errorCode: ErrorCode.NONE, assignment: Buffer.from("yours") });
  } finally {
    coordinator.close();
  }
});

test("members that never ask for their assignment within the rebalance timeout are removed", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const request = joinRequest({ rebalanceTimeoutMs: 200 });
    const [leader, follower] = await within(Promise.all([coordinator.join(request), coordinator.join(request)]));
    await within(coordinator.sync(syncRequest(leader, [{ memberId: leader.memberId, assignment: Buffer.from("all") }])));
    await eventually(() => coordinator.heartbeat(memberRef(leader)) === ErrorCode.REBALANCE_IN_PROGRESS, {
      timeoutMs: 3_000,
      what: "the follower to be removed for not syncing",
    });
    assert.is(coordinator.heartbeat(memberRef(follower)), ErrorCode.UNKNOWN_MEMBER_ID);
  } finally {
    coordinator.close();
  }
});

test("a member rejoining with different protocols triggers a rebalance", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const request = joinRequest();
    const [a, b] = await formStableGroup(coordinator, [request, request]);
    const changed = { ...request, memberId: b.memberId, protocols: [{ name: "range", metadata: Buffer.from("new-topics") }] };
    const bRejoin = track(coordinator.join(changed));
    assert.is(coordinator.heartbeat(memberRef(a)), ErrorCode.REBALANCE_IN_PROGRESS);
    const a2 = await within(coordinator.join({ ...request, memberId: a.memberId }));
    await within(bRejoin.promise);
    assert.equal(a2.members.map((m) => m.metadata.toString()), ["range-metadata", "new-topics"]);
  } finally {
    coordinator.close();
  }
});

test.run();
