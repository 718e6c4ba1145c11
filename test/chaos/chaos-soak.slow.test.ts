/**
 * The chaos soak's 60-second variant (bench/chaos runs the 10-minute one): instances and the broker killed, a
 * graceful stop/restart and proxy faults while wordcount and pageviews are fed and queried; then nothing
 * acknowledged is lost and every count, in the stores and the output topic, equals the truth; under
 * exactly_once_v2 also no output record is written twice; and the same with static membership.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DEFAULT_OPTIONS, runChaos, type ChaosReport } from "../../bench/chaos/chaos-run";

/**
 * A minute of faults with `guarantee` (and static membership if asked); asserts that nothing is lost or miscounted,
 * and answers the report.
 */
async function minuteOfFaults(guarantee: "at_least_once" | "exactly_once_v2", staticMembership = false): Promise<ChaosReport> {
  const report = await runChaos({
    ...DEFAULT_OPTIONS,
    guarantee,
    staticMembership,
    seed: 7,
    durationMs: 60_000,
    instanceKillEveryMs: [15_000, 25_000],
    instanceDownMs: [0, 5_000],
    brokerKills: 1,
    brokerDownMs: [1_000, 4_000],
    restEveryMs: [20_000, 30_000],
    proxyEveryMs: [12_000, 20_000],
    progress: () => undefined,
  });
  const failures = report.check.samples.join("; ");
  assert.ok(report.faults["instance kill"] >= 2 && report.faults["broker kill"] === 1, `faults injected: ${JSON.stringify(report.faults)}`);
  assert.ok(report.check.inputRecords >= report.ackedRecords, "every acknowledged record is in the input topics");
  assert.is(report.check.lostRecords, 0, "lost records");
  assert.is(report.check.miscountedKeys, 0, `miscounted keys: ${failures}`);
  assert.is(report.check.outputMismatches, 0, `output topic: ${failures}`);
  assert.is(report.queries.serverErrors, 0, "queries answered 5xx");
  assert.is(report.queries.malformed, 0, "query answers that are not JSON");
  assert.is(report.queries.hangs, 0, "queries with no answer within their timeout");
  for (const sse of report.sse) assert.is(sse.backwards, 0, "SSE ids going backwards");
  for (const { kind, recoveryMs, afterRestartMs } of report.recoveries.filter((recovery) => recovery.kind.endsWith("kill") && recovery.recoveryMs !== undefined)) {
    assert.ok(afterRestartMs !== undefined && afterRestartMs <= recoveryMs!, `${kind}: recovery after the restart ${afterRestartMs} ms, from the kill ${recoveryMs} ms`);
  }
  for (const { kind, recoveryMs, afterFaultMs } of report.recoveries.filter((recovery) => recovery.recoveryMs !== undefined)) {
    assert.ok(afterFaultMs !== undefined && afterFaultMs <= recoveryMs!, `${kind}: recovery after the fault ended ${afterFaultMs} ms, from the fault ${recoveryMs} ms`);
  }
  return report;
}

test("a minute of faults loses no record and miscounts no key", async () => {
  await minuteOfFaults("at_least_once");
});

test("under exactly_once_v2, a minute of faults also writes no output twice, as a read_committed reader sees it", async () => {
  const report = await minuteOfFaults("exactly_once_v2");
  assert.is(report.check.duplicateOutputs, 0, "duplicate outputs");
});

test("with static membership (each instance a stable group.instance.id), a minute of faults loses no record and miscounts no key", async () => {
  const report = await minuteOfFaults("at_least_once", true);
  assert.ok(report.staticSessionTimeoutMs !== undefined && report.staticSessionTimeoutMs > 5_000, "the session timeout covers a restart");
});

test.run();
