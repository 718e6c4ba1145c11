import { suite } from "uvu";
import * as assert from "uvu/assert";
import { DefaultGroupCoordinator } from "../../../../providers/broker/group/default-group-coordinator";
import { ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import { formStableGroup, joinRequest, memberRef, protocol, syncRequest, track, within, GROUP } from "./group-requests";

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

test.run();
