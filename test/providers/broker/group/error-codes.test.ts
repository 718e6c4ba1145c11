import { suite } from "uvu";
import * as assert from "uvu/assert";
import { DefaultGroupCoordinator } from "../../../../providers/broker/group/default-group-coordinator";
import { ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import { formStableGroup, joinAll, joinRequest, memberRef, protocol, syncRequest, track, within, GROUP, byId } from "./group-requests";

const test = suite("group coordinator: error codes");

test("a session timeout outside the configured bounds is refused", async () => {
  const coordinator = new DefaultGroupCoordinator({ minSessionTimeoutMs: 1_000, maxSessionTimeoutMs: 60_000 });
  try {
    assert.is((await coordinator.join(joinRequest({ sessionTimeoutMs: 999 }))).errorCode, ErrorCode.INVALID_SESSION_TIMEOUT);
    assert.is((await coordinator.join(joinRequest({ sessionTimeoutMs: 60_001 }))).errorCode, ErrorCode.INVALID_SESSION_TIMEOUT);
    assert.equal(coordinator.list(), [], "a refused join creates no group");
  } finally {
    coordinator.close();
  }
});

test("an empty group id is refused", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    assert.is((await coordinator.join(joinRequest({ groupId: "" }))).errorCode, ErrorCode.INVALID_GROUP_ID);
    assert.is(coordinator.heartbeat({ groupId: "", generationId: 1, memberId: "m", groupInstanceId: null }), ErrorCode.INVALID_GROUP_ID);
  } finally {
    coordinator.close();
  }
});

test("a join with a member id the coordinator never gave out is refused", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const unknownGroup = await coordinator.join(joinRequest({ memberId: "made-up" }));
    assert.is(unknownGroup.errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
    assert.equal(coordinator.list(), []);
    await formStableGroup(coordinator, [joinRequest()]);
    assert.is((await coordinator.join(joinRequest({ memberId: "made-up" }))).errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
  } finally {
    coordinator.close();
  }
});

test("a join whose protocol type or protocols do not fit the group is refused", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    assert.is((await coordinator.join(joinRequest({ protocols: [] }))).errorCode, ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    assert.is((await coordinator.join(joinRequest({ protocolType: "" }))).errorCode, ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    await formStableGroup(coordinator, [joinRequest()]);
    const otherType = await coordinator.join(joinRequest({ protocolType: "connect" }));
    assert.is(otherType.errorCode, ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    const noCommon = await coordinator.join(joinRequest({ protocols: [protocol("roundrobin", "x")] }));
    assert.is(noCommon.errorCode, ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    assert.is(coordinator.describe([GROUP])[0].groupState, "Stable", "refused joins do not disturb the group");
  } finally {
    coordinator.close();
  }
});

test("a lone member may switch to a protocol nobody else needs to share", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a] = await formStableGroup(coordinator, [joinRequest()]);
    const switched = await within(coordinator.join(joinRequest({ memberId: a.memberId, protocols: [protocol("roundrobin", "rr")] })));
    assert.is(switched.errorCode, ErrorCode.NONE);
    assert.is(switched.protocolName, "roundrobin");
  } finally {
    coordinator.close();
  }
});

test("sync answers UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION and REBALANCE_IN_PROGRESS like Kafka", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const request = joinRequest();
    const [a] = await formStableGroup(coordinator, [request]);
    const unknownGroup = await coordinator.sync({ ...syncRequest(a), groupId: "other" });
    assert.is(unknownGroup.errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
    assert.is((await coordinator.sync({ ...syncRequest(a), memberId: "made-up" })).errorCode, ErrorCode.UNKNOWN_MEMBER_ID);
    assert.is((await coordinator.sync({ ...syncRequest(a), generationId: 7 })).errorCode, ErrorCode.ILLEGAL_GENERATION);

    track(coordinator.join(joinRequest({ clientId: "newcomer" })));
    const during = await coordinator.sync(syncRequest(a));
    assert.equal(during, { errorCode: ErrorCode.REBALANCE_IN_PROGRESS, assignment: Buffer.alloc(0) });
  } finally {
    coordinator.close();
  }
});

test("heartbeat answers NONE while completing and stable, and UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION otherwise", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [leader, follower] = await joinAll(coordinator, [joinRequest(), joinRequest()]);
    assert.is(coordinator.heartbeat(memberRef(follower)), ErrorCode.NONE, "CompletingRebalance");
    await within(coordinator.sync(syncRequest(leader, [])));
    assert.is(coordinator.heartbeat(memberRef(follower)), ErrorCode.NONE, "Stable");
    assert.is(coordinator.heartbeat(memberRef(follower, { generationId: 0 })), ErrorCode.ILLEGAL_GENERATION);
    assert.is(coordinator.heartbeat(memberRef(follower, { memberId: "made-up" })), ErrorCode.UNKNOWN_MEMBER_ID);
    assert.is(coordinator.heartbeat(memberRef(follower, { groupId: "other" })), ErrorCode.UNKNOWN_MEMBER_ID);
  } finally {
    coordinator.close();
  }
});

test("leave answers per member, UNKNOWN_MEMBER_ID for ids that are not in the group", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a, b] = await formStableGroup(coordinator, [joinRequest(), joinRequest()]);
    assert.equal(coordinator.leave(GROUP, [byId(a.memberId), byId("made-up")]), [
      { memberId: a.memberId, groupInstanceId: null, errorCode: ErrorCode.NONE },
      { memberId: "made-up", groupInstanceId: null, errorCode: ErrorCode.UNKNOWN_MEMBER_ID },
    ]);
    assert.equal(coordinator.leave("other", [byId(b.memberId)]), [{ memberId: b.memberId, groupInstanceId: null, errorCode: ErrorCode.UNKNOWN_MEMBER_ID }]);
  } finally {
    coordinator.close();
  }
});

test("a pending member may leave before it joins, and the join phase stops waiting for it", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a] = await formStableGroup(coordinator, [joinRequest()]);
    const pending = await coordinator.join(joinRequest({ requireKnownMemberId: true }));
    const aRejoin = track(coordinator.join(joinRequest({ memberId: a.memberId, protocols: [protocol("range", "changed")] })));
    assert.equal(coordinator.leave(GROUP, [byId(pending.memberId)]), [{ memberId: pending.memberId, groupInstanceId: null, errorCode: ErrorCode.NONE }]);
    const a2 = await within(aRejoin.promise);
    assert.is(a2.generationId, 2);
    assert.equal(a2.members.map((m) => m.memberId), [a.memberId]);
  } finally {
    coordinator.close();
  }
});

test.run();
