/**
 * The chaos soak: `node dist/bench/chaos/chaos.js [--minutes=10] [--seed=1] [--keep] [--eos] [--standbys=N] [--static] [--log-level=warn]`
 * (after `npm run build`); `--standbys=N` runs the applications with N standby replicas and asks keyed queries with
 * allow_stale; `--static` gives each instance a stable streams.group.instance.id (static membership, KIP-345) and a
 * session timeout longer than its restart; `--log-level` is the Sluice processes' (their logs are kept in the run's
 * folder with `--keep`).
 * Prints what was fed, the faults injected, recovery times, query outcomes, SSE continuity, RSS and the check
 * against the acknowledged input; exits non-zero when a record is lost or a key miscounted, and with `--eos` (the
 * applications under processing.guarantee=exactly_once_v2) when an output record is a duplicate.
 */
import { parseArgs } from "node:util";
import { DEFAULT_OPTIONS, runChaos, type ChaosReport } from "./chaos-run";

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
/** A process's RSS at the end may be at most this multiple of its RSS after warm-up (issue #20). */
const RSS_GROWTH_LIMIT = 1.5;
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;

export function printReport(report: ChaosReport): void {
  const lines: string[] = [];
  const totalQueries = Object.values(report.queries.byStatus).reduce((a, b) => a + b, 0);
  const share = (n: number) => `${((100 * n) / Math.max(1, totalQueries)).toFixed(1)} %`;
  lines.push(`seed: ${report.seed}`);
  const membership = report.staticSessionTimeoutMs === undefined ? "dynamic" : `static (session timeout ${report.staticSessionTimeoutMs} ms)`;
  lines.push(`processing.guarantee: ${report.guarantee}; standby replicas: ${report.standbyReplicas}; membership: ${membership}`);
  lines.push(`records fed: ${report.fedRecords}, acknowledged: ${report.ackedRecords} (sends retried: ${report.retriedSends})`);
  lines.push(`input records in the topics: ${report.check.inputRecords} (stored twice by producer retries: ${report.check.duplicatedInputs})`);
  lines.push(`recovery to all RUNNING after a fault: p50 ${percentile(report.recoveryMs, 50)} ms, p99 ${percentile(report.recoveryMs, 99)} ms (${report.recoveryMs.length} faults)`);
  const afterRestart = report.recoveries.flatMap((recovery) => (recovery.afterRestartMs === undefined ? [] : [recovery.afterRestartMs]));
  lines.push(`  after a killed process served again: p50 ${percentile(afterRestart, 50)} ms, p99 ${percentile(afterRestart, 99)} ms (${afterRestart.length} kills)`);
  // From the fault, a recovery includes the fault's own length, which the harness chose (a process down up to 10 s,
  // a proxy stall up to 5 s); from its end is what Sluice itself takes.
  const afterFault = report.recoveries.flatMap((recovery) => (recovery.afterFaultMs === undefined ? [] : [recovery.afterFaultMs]));
  lines.push(`  once the fault was over: p50 ${percentile(afterFault, 50)} ms, p99 ${percentile(afterFault, 99)} ms (${afterFault.length} faults)`);
  for (const { atMs, kind, downMs, recoveryMs, afterRestartMs, afterFaultMs } of report.recoveries) {
    const down = downMs === undefined ? "" : ` (down ${(downMs / 1000).toFixed(1)} s before its restart)`;
    const back =
      afterRestartMs !== undefined ? `, ${(afterRestartMs / 1000).toFixed(1)} s after it served again` : afterFaultMs !== undefined ? `, ${(afterFaultMs / 1000).toFixed(1)} s after the fault ended` : "";
    lines.push(`  +${(atMs / 1000).toFixed(0)}s ${kind}${down}: ${recoveryMs === undefined ? "not recovered before the faults ended" : `all RUNNING ${(recoveryMs / 1000).toFixed(1)} s later${back}`}`);
  }
  lines.push(`settled (caught up, all RUNNING) ${report.settleMs} ms after the faults`);
  lines.push(`queries: ${totalQueries} answered; ${Object.entries(report.queries.byStatus).sort().map(([status, n]) => `${status} ${n} (${share(n)})`).join(", ")}`);
  lines.push(`query failures: 5xx ${report.queries.serverErrors}, not JSON ${report.queries.malformed}, hangs ${report.queries.hangs}, over timeout ${report.queries.overTimeout}; instance unreachable (being killed) ${report.queries.unreachable}`);
  for (const reason of report.queries.failureReasons) lines.push(`  a failure's reason: ${reason}`);
  report.sse.forEach((sse, i) => lines.push(`sse subscriber ${i}: ${sse.events} events, ${sse.reconnects} reconnects, ids going backwards ${sse.backwards}`));
  for (const rss of report.rss) lines.push(`rss ${rss.name}: ${mib(rss.warmBytes)} after warm-up, ${mib(rss.endBytes)} at the end (${(rss.endBytes / Math.max(1, rss.warmBytes)).toFixed(2)}x)`);
  const grown = report.rss.filter((rss) => rss.endBytes > RSS_GROWTH_LIMIT * rss.warmBytes).map((rss) => rss.name);
  lines.push(`rss within ${RSS_GROWTH_LIMIT}x of warm-up: ${grown.length === 0 ? "yes" : `no (${grown.join(", ")})`}`);
  lines.push(`checked: ${report.check.wordKeys} words, ${report.check.pageviewWindows} page-view windows; output topic mismatches ${report.check.outputMismatches}`);
  const { repartitionMissing, repartitionPurged, repartitionResent } = report.check;
  const missing = repartitionMissing === undefined ? `not looked for (${repartitionPurged} records purged once consumed)` : String(repartitionMissing);
  lines.push(`wordcount repartition topic: words missing ${missing}, re-sent ${repartitionResent}`);
  for (const sample of report.check.samples) lines.push(`  mismatch: ${sample}`);
  lines.push(`faults injected: ${Object.values(report.faults).reduce((a, b) => a + b, 0)} (${Object.entries(report.faults).map(([kind, n]) => `${kind} ${n}`).join(", ")})`);
  lines.push(`lost records: ${report.check.lostRecords}`);
  lines.push(`miscounted keys: ${report.check.miscountedKeys}`);
  lines.push(`duplicate outputs: ${report.check.duplicateOutputs}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { minutes: { type: "string" }, seed: { type: "string" }, keep: { type: "boolean" }, eos: { type: "boolean" }, standbys: { type: "string" }, static: { type: "boolean" }, "log-level": { type: "string" } } });
  const minutes = Number(values.minutes ?? 10);
  const seed = Number(values.seed ?? Date.now() % 100_000);
  const standbyReplicas = Number(values.standbys ?? 0);
  if (!(minutes > 0) || !Number.isInteger(seed)) throw new Error("--minutes must be a positive number and --seed an integer");
  if (!Number.isInteger(standbyReplicas) || standbyReplicas < 0) throw new Error("--standbys must be a whole number, 0 or more");
  const guarantee = values.eos === true ? "exactly_once_v2" : "at_least_once";
  const report = await runChaos({ ...DEFAULT_OPTIONS, seed, durationMs: minutes * 60_000, keepDir: values.keep === true, guarantee, standbyReplicas, staticMembership: values.static === true, logLevel: values["log-level"] });
  printReport(report);
  if (report.check.lostRecords !== 0 || report.check.miscountedKeys !== 0 || (guarantee === "exactly_once_v2" && report.check.duplicateOutputs !== 0)) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`chaos run failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
