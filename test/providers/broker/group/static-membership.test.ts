import { suite } from "uvu";
import * as assert from "uvu/assert";
import { DefaultGroupCoordinator } from "../../../../providers/broker/group/default-group-coordinator";
import { ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import { byId, flushCallbacks, formStableGroup, joinRequest, memberRef, protocol, syncRequest, track, within, GROUP } from "./group-requests";

const test = suite("group coordinator: static membership (KIP-345)");

test("a static member restarting gets a new id and its old assignment without a rebalance; its old id is fenced", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const staticRequest = joinRequest({ groupInstanceId: "instance-1" });
    const [s, d] = await formStableGroup(coordinator, [staticRequest, joinRequest()]);
    const restarted = await within(coordinator.join(staticRequest));

    assert.is(restarted.errorCode, ErrorCode.NONE);
    assert.is.not(restarted.memberId, s.memberId);
    assert.is(restarted.generationId, 1);
    assert.is(restarted.leader, restarted.memberId, "leadership follows the instance");
    assert.equal(restarted.members, [], "no reassignment is asked for");
    assert.is(coordinator.describe([GROUP])[0].groupState, "Stable");
    assert.is(coordinator.heartbeat(memberRef(d)), ErrorCode.NONE, "the other member is not disturbed");

    const synced = await coordinator.sync({ ...syncRequest(restarted), groupInstanceId: "instance-1" });
    assert.equal(synced, { errorCode: ErrorCode.NONE, assignment: Buffer.from("assignment-0") });
    assert.is(coordinator.heartbeat(memberRef(s, { groupInstanceId: "instance-1" })), ErrorCode.FENCED_INSTANCE_ID);
    assert.is(coordinator.validateOffsetCommit(memberRef(s, { groupInstanceId: "instance-1" })), ErrorCode.FENCED_INSTANCE_ID);
    assert.is(coordinator.heartbeat(memberRef(restarted, { groupInstanceId: "instance-1" })), ErrorCode.NONE);
  } finally {
    coordinator.close();
  }
});

test("a static member restarting with protocols that change the group's choice triggers a rebalance", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const staticRequest = joinRequest({ groupInstanceId: "instance-1", protocols: [protocol("range", "r"), protocol("roundrobin", "rr")] });
    const [s] = await formStableGroup(coordinator, [staticRequest]);
    assert.is(s.protocolName, "range");
    const restarted = await within(coordinator.join({ ...staticRequest, protocols: [protocol("roundrobin", "rr")] }));
    assert.is(restarted.generationId, 2);
    assert.is(restarted.protocolName, "roundrobin");
  } finally {
    coordinator.close();
  }
});

test("a static member that misses a rebalance stays in the group", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const dynamicRequest = joinRequest({ rebalanceTimeoutMs: 60 });
    const [, d] = await formStableGroup(coordinator, [{ ...dynamicRequest, groupInstanceId: "instance-1" }, dynamicRequest]);
    const newcomer = track(coordinator.join({ ...dynamicRequest, clientId: "newcomer" }));
    const d2 = await within(coordinator.join({ ...dynamicRequest, memberId: d.memberId }));
    await within(newcomer.promise);
    assert.is(d2.generationId, 2);
    assert.is(coordinator.describe([GROUP])[0].members.length, 3);
    assert.ok(
      coordinator.describe([GROUP])[0].members.some((m) => m.groupInstanceId === "instance-1"),
      "the static member keeps its place until its session expires",
    );
  } finally {
    coordinator.close();
  }
});

test("a second member with the same instance id fences the first: its waiting join is answered FENCED_INSTANCE_ID", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const staticRequest = joinRequest({ groupInstanceId: "instance-1" });
    const [s, d] = await formStableGroup(coordinator, [staticRequest, joinRequest()]);
    // The first member rejoins (a rebalance it asked for) and waits for the other member, which has not rejoined yet.
    const waiting = track(coordinator.join({ ...staticRequest, memberId: s.memberId, protocols: [protocol("range", "changed")] }));
    await flushCallbacks();
    assert.is(waiting.settled, false);
    const duplicate = track(coordinator.join(staticRequest));
    assert.is((await within(waiting.promise)).errorCode, ErrorCode.FENCED_INSTANCE_ID);
    await within(coordinator.join({ ...joinRequest(), memberId: d.memberId }));
    const taken = await within(duplicate.promise);
    assert.is(taken.errorCode, ErrorCode.NONE);
    assert.is(coordinator.heartbeat(memberRef(s, { groupInstanceId: "instance-1", generationId: taken.generationId })), ErrorCode.FENCED_INSTANCE_ID);
  } finally {
    coordinator.close();
  }
});

test("LeaveGroup v3 names a static member by its instance id: it leaves and the group rebalances; a wrong member id is fenced", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [s, d] = await formStableGroup(coordinator, [joinRequest({ groupInstanceId: "instance-1" }), joinRequest()]);
    assert.equal(coordinator.leave(GROUP, [{ memberId: d.memberId, groupInstanceId: "instance-1" }, { memberId: "", groupInstanceId: "instance-9" }]), [
      { memberId: d.memberId, groupInstanceId: "instance-1", errorCode: ErrorCode.FENCED_INSTANCE_ID },
      { memberId: "", groupInstanceId: "instance-9", errorCode: ErrorCode.UNKNOWN_MEMBER_ID },
    ]);
    assert.is(coordinator.heartbeat(memberRef(d)), ErrorCode.NONE, "a refused leave does not rebalance");
    assert.equal(coordinator.leave(GROUP, [{ memberId: "", groupInstanceId: "instance-1" }]), [{ memberId: "", groupInstanceId: "instance-1", errorCode: ErrorCode.NONE }]);
    assert.is(coordinator.heartbeat(memberRef(d)), ErrorCode.REBALANCE_IN_PROGRESS);
    assert.is(coordinator.heartbeat(memberRef(s, { groupInstanceId: "instance-1" })), ErrorCode.UNKNOWN_MEMBER_ID);
    const rejoined = await within(coordinator.join({ ...joinRequest(), memberId: d.memberId }));
    assert.is(rejoined.generationId, 2);
    assert.equal(rejoined.members.map((m) => m.memberId), [d.memberId], "only the dynamic member is left");
    assert.equal(coordinator.leave(GROUP, [byId(d.memberId)]), [{ memberId: d.memberId, groupInstanceId: null, errorCode: ErrorCode.NONE }]);
  } finally {
    coordinator.close();
  }
});

test("a static member whose session expires leaves the group with a rebalance, as a dynamic one does", async () => {
  const coordinator = new DefaultGroupCoordinator({ minSessionTimeoutMs: 10 });
  try {
    const [, d] = await formStableGroup(coordinator, [joinRequest({ groupInstanceId: "instance-1", sessionTimeoutMs: 200 }), joinRequest()]);
    const deadline = Date.now() + 5_000;
    while (coordinator.heartbeat(memberRef(d)) === ErrorCode.NONE) {
      if (Date.now() > deadline) throw new Error("the static member's session never expired");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.is(coordinator.heartbeat(memberRef(d)), ErrorCode.REBALANCE_IN_PROGRESS);
    const rejoined = await within(coordinator.join({ ...joinRequest(), memberId: d.memberId }));
    assert.is(rejoined.generationId, 2);
    assert.equal(rejoined.members.map((m) => m.memberId), [d.memberId]);
  } finally {
    coordinator.close();
  }
});

test.run();
