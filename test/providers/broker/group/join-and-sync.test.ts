import { suite } from "uvu";
import * as assert from "uvu/assert";
import { DefaultGroupCoordinator } from "../../../../providers/broker/group/default-group-coordinator";
import { ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import { flushCallbacks, formStableGroup, joinAll, joinRequest, protocol, syncRequest, track, within, GROUP } from "./group-requests";

const test = suite("group coordinator: join and sync");

test("two members joining together form one generation and only the leader receives every member's metadata", async () => {
  const coordinator = new DefaultGroupCoordinator({ initialRebalanceDelayMs: 20 });
  try {
    const firstMetadata = Buffer.from([0, 1, 0x7f, 0x80, 0xff]);
    const first = joinRequest({ clientId: "first", protocols: [{ name: "range", metadata: firstMetadata }] });
    const second = joinRequest({ clientId: "second", protocols: [protocol("range", "second")] });
    const [a, b] = await joinAll(coordinator, [first, second]);

    assert.is(a.errorCode, ErrorCode.NONE);
    assert.is(b.errorCode, ErrorCode.NONE);
    assert.is(a.generationId, 1);
    assert.is(b.generationId, 1);
    assert.is(a.protocolType, "consumer");
    assert.is(a.protocolName, "range");
    assert.ok(a.memberId.startsWith("first-"));
    assert.ok(b.memberId.startsWith("second-"));
    assert.is(a.leader, a.memberId);
    assert.is(b.leader, a.memberId);
    assert.equal(
      a.members.map((m) => [m.memberId, m.metadata.toString("hex")]),
      [
        [a.memberId, firstMetadata.toString("hex")],
        [b.memberId, Buffer.from("second").toString("hex")],
      ],
    );
    assert.equal(b.members, []);
  } finally {
    coordinator.close();
  }
});

test("a member arriving during the initial delay is waited for", async () => {
  const coordinator = new DefaultGroupCoordinator({ initialRebalanceDelayMs: 30 });
  try {
    const first = coordinator.join(joinRequest({ clientId: "first" }));
    await new Promise((resolve) => setImmediate(resolve));
    const second = coordinator.join(joinRequest({ clientId: "second" }));
    const [a, b] = await within(Promise.all([first, second]));
    assert.is(a.generationId, 1);
    assert.is(b.generationId, 1);
    assert.is(a.members.length, 2);
  } finally {
    coordinator.close();
  }
});

test("the protocol is the one most members prefer among those every member supports", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a, b, c] = await joinAll(coordinator, [
      joinRequest({ protocols: [protocol("sticky", "a-sticky"), protocol("roundrobin", "a-rr"), protocol("range", "a-range")] }),
      joinRequest({ protocols: [protocol("roundrobin", "b-rr"), protocol("range", "b-range")] }),
      joinRequest({ protocols: [protocol("range", "c-range"), protocol("roundrobin", "c-rr")] }),
    ]);
    assert.is(a.protocolName, "roundrobin");
    assert.is(c.protocolName, "roundrobin");
    assert.equal(
      a.members.map((m) => m.metadata.toString()),
      ["a-rr", "b-rr", "c-rr"],
    );
    assert.equal(b.members, []);
  } finally {
    coordinator.close();
  }
});

test("a tie in votes goes to the protocol the earliest member prefers", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a] = await joinAll(coordinator, [
      joinRequest({ protocols: [protocol("roundrobin", "a-rr"), protocol("range", "a-range")] }),
      joinRequest({ protocols: [protocol("range", "b-range"), protocol("roundrobin", "b-rr")] }),
    ]);
    assert.is(a.protocolName, "roundrobin");
  } finally {
    coordinator.close();
  }
});

test("followers wait for the leader's sync; each gets its own bytes and an unassigned member an empty buffer", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [leader, follower, idle] = await joinAll(coordinator, [joinRequest(), joinRequest(), joinRequest()]);
    const followerSync = track(coordinator.sync(syncRequest(follower)));
    const idleSync = track(coordinator.sync(syncRequest(idle)));
    await flushCallbacks();
    assert.not.ok(followerSync.settled, "a follower's sync must wait for the leader");
    assert.is(coordinator.describe([GROUP])[0].groupState, "CompletingRebalance");

    const leaderBytes = Buffer.from([0, 1, 2, 255]);
    const followerBytes = Buffer.from([9, 8, 7]);
    const leaderSync = await coordinator.sync(
      syncRequest(leader, [
        { memberId: leader.memberId, assignment: leaderBytes },
        { memberId: follower.memberId, assignment: followerBytes },
      ]),
    );
    assert.equal(leaderSync, { errorCode: ErrorCode.NONE, assignment: leaderBytes });
    assert.equal(await within(followerSync.promise), { errorCode: ErrorCode.NONE, assignment: followerBytes });
    assert.equal(await within(idleSync.promise), { errorCode: ErrorCode.NONE, assignment: Buffer.alloc(0) });
    assert.is(coordinator.describe([GROUP])[0].groupState, "Stable");

    const again = await coordinator.sync(syncRequest(follower));
    assert.equal(again, { errorCode: ErrorCode.NONE, assignment: followerBytes }, "a sync in Stable returns the current assignment");
  } finally {
    coordinator.close();
  }
});

test("a new member required to know its id gets MEMBER_ID_REQUIRED with an id, then joins with it", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const first = await coordinator.join(joinRequest({ clientId: "kafkajs", requireKnownMemberId: true }));
    assert.is(first.errorCode, ErrorCode.MEMBER_ID_REQUIRED);
    assert.match(first.memberId, /^kafkajs-[0-9a-f-]{36}$/);
    assert.is(coordinator.describe([GROUP])[0].members.length, 0, "a pending member is not a member yet");

    const joined = await within(coordinator.join(joinRequest({ clientId: "kafkajs", memberId: first.memberId, requireKnownMemberId: true })));
    assert.is(joined.errorCode, ErrorCode.NONE);
    assert.is(joined.memberId, first.memberId);
    assert.is(joined.leader, first.memberId);
    assert.is(joined.generationId, 1);
  } finally {
    coordinator.close();
  }
});

test("a rebalance waits for a member that was handed an id until it joins with it", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [stable] = await formStableGroup(coordinator, [joinRequest()]);
    const pending = await coordinator.join(joinRequest({ requireKnownMemberId: true }));
    const leaderRejoin = track(coordinator.join(joinRequest({ memberId: stable.memberId })));
    await flushCallbacks();
    assert.not.ok(leaderRejoin.settled, "the join phase waits for the pending member");

    const newcomer = await within(coordinator.join(joinRequest({ memberId: pending.memberId, requireKnownMemberId: true })));
    const leader = await within(leaderRejoin.promise);
    assert.is(newcomer.generationId, 2);
    assert.is(leader.generationId, 2);
    assert.equal(leader.members.map((m) => m.memberId), [stable.memberId, pending.memberId]);
  } finally {
    coordinator.close();
  }
});

test("a follower rejoining a stable group with unchanged protocols gets the current generation without a rebalance", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const request = joinRequest();
    const [leader, follower] = await formStableGroup(coordinator, [request, request]);
    const rejoined = await coordinator.join({ ...request, memberId: follower.memberId });
    assert.is(rejoined.errorCode, ErrorCode.NONE);
    assert.is(rejoined.generationId, 1);
    assert.is(rejoined.leader, leader.memberId);
    assert.is(coordinator.describe([GROUP])[0].groupState, "Stable");
  } finally {
    coordinator.close();
  }
});

test.run();
