import { suite } from "uvu";
import * as assert from "uvu/assert";
import { DefaultGroupCoordinator } from "../../../../providers/broker/group/default-group-coordinator";
import { ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import { formStableGroup, joinRequest, protocol, track, GROUP } from "./group-requests";

const test = suite("group coordinator: describe and list");

test("a stable group is described with its members' clients, chosen-protocol metadata and assignments", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a, b] = await formStableGroup(coordinator, [
      joinRequest({ clientId: "alpha", clientHost: "/10.0.0.1", protocols: [protocol("sticky", "a-sticky"), protocol("range", "a-range")] }),
      joinRequest({ clientId: "beta", clientHost: "/10.0.0.2", protocols: [protocol("range", "b-range")] }),
    ]);
    assert.equal(coordinator.describe([GROUP]), [
      {
        errorCode: ErrorCode.NONE,
        groupId: GROUP,
        groupState: "Stable",
        protocolType: "consumer",
        protocolData: "range",
        members: [
          {
            memberId: a.memberId,
            groupInstanceId: null,
            clientId: "alpha",
            clientHost: "/10.0.0.1",
            metadata: Buffer.from("a-range"),
            assignment: Buffer.from("assignment-0"),
          },
          {
            memberId: b.memberId,
            groupInstanceId: null,
            clientId: "beta",
            clientHost: "/10.0.0.2",
            metadata: Buffer.from("b-range"),
            assignment: Buffer.from("assignment-1"),
          },
        ],
      },
    ]);
  } finally {
    coordinator.close();
  }
});

test("while rebalancing, members are described without metadata or assignment", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    const [a] = await formStableGroup(coordinator, [joinRequest()]);
    track(coordinator.join(joinRequest({ clientId: "newcomer" })));
    const [described] = coordinator.describe([GROUP]);
    assert.is(described.groupState, "PreparingRebalance");
    assert.is(described.protocolData, "");
    assert.is(described.members.length, 2);
    assert.is(described.members[0].memberId, a.memberId);
    assert.is(described.members[0].metadata.length, 0);
    assert.is(described.members[0].assignment.length, 0);
  } finally {
    coordinator.close();
  }
});

test("an unknown group is described as Dead without members and without an error", () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    assert.equal(coordinator.describe(["nobody"]), [
      { errorCode: ErrorCode.NONE, groupId: "nobody", groupState: "Dead", protocolType: "", protocolData: "", members: [] },
    ]);
  } finally {
    coordinator.close();
  }
});

test("list names every group with its protocol type and state", async () => {
  const coordinator = new DefaultGroupCoordinator();
  try {
    await formStableGroup(coordinator, [joinRequest()]);
    track(coordinator.join(joinRequest({ groupId: "connect-workers", protocolType: "connect" })));
    assert.equal(
      coordinator.list().sort((x, y) => x.groupId.localeCompare(y.groupId)),
      [
        { groupId: "connect-workers", protocolType: "connect", groupState: "PreparingRebalance" },
        { groupId: GROUP, protocolType: "consumer", groupState: "Stable" },
      ],
    );
  } finally {
    coordinator.close();
  }
});

test.run();
