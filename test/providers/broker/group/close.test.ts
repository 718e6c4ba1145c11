import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../../helpers/eventually";
import { DefaultGroupCoordinator } from "../../../../providers/broker/group/default-group-coordinator";
import { ErrorCode } from "../../../../providers/kafka-protocol/error-codes";
import { formStableGroup, joinAll, joinRequest, memberRef, syncRequest, within, GROUP } from "./group-requests";

const test = suite("group coordinator: close");

test("closing answers waiting joins and syncs with COORDINATOR_NOT_AVAILABLE", async () => {
  const coordinator = new DefaultGroupCoordinator();
  const [a] = await formStableGroup(coordinator, [joinRequest()]);
  const waitingJoin = coordinator.join(joinRequest({ clientId: "newcomer" }));
  const [, follower] = await joinAll(coordinator, [joinRequest({ groupId: "other" }), joinRequest({ groupId: "other" })]);
  const waitingSync = coordinator.sync({ ...syncRequest(follower), groupId: "other" });

  coordinator.close();

  assert.is((await within(waitingJoin)).errorCode, ErrorCode.COORDINATOR_NOT_AVAILABLE);
  assert.is((await within(waitingSync)).errorCode, ErrorCode.COORDINATOR_NOT_AVAILABLE);
  assert.is(coordinator.heartbeat(memberRef(a)), ErrorCode.COORDINATOR_NOT_AVAILABLE);
  assert.is((await coordinator.join(joinRequest())).errorCode, ErrorCode.COORDINATOR_NOT_AVAILABLE);
  assert.is(coordinator.validateOffsetCommit(memberRef(a)), ErrorCode.COORDINATOR_NOT_AVAILABLE);
  assert.is(coordinator.describe([GROUP])[0].errorCode, ErrorCode.COORDINATOR_NOT_AVAILABLE);
  assert.equal(coordinator.list(), []);
});

test("a closed coordinator removes no member later: its session timers are gone", async () => {
  const recordingLogger = (messages: string[]) => ({
    debug: () => undefined,
    info: (msg: string) => void messages.push(msg),
    warn: () => undefined,
    error: () => undefined,
  });
  const closedLog: string[] = [];
  const closed = new DefaultGroupCoordinator({ minSessionTimeoutMs: 10, logger: recordingLogger(closedLog) });
  await formStableGroup(closed, [joinRequest({ sessionTimeoutMs: 30 })]);
  closed.close();

  const probeLog: string[] = [];
  const probe = new DefaultGroupCoordinator({ minSessionTimeoutMs: 10, logger: recordingLogger(probeLog) });
  try {
    // The probe's longer session expiring proves the closed coordinator's timer would have fired by now.
    await formStableGroup(probe, [joinRequest({ sessionTimeoutMs: 60 })]);
    await eventually(() => probeLog.includes("member session expired"), { timeoutMs: 3_000, what: "the probe's session expiry" });
    assert.not.ok(closedLog.includes("member session expired"));
  } finally {
    probe.close();
  }
});

test.run();
