/**
 * A wrong-password flood against a `sluice start` process with basic authentication: `--connections` keep-alive
 * connections from one address (127.0.0.2) send wrong passwords of a real user (with `--unknown-users=1`, of a new
 * unknown user each time, which no per-user rule stops), each the next as soon as the last
 * was answered, for `--seconds`; meanwhile a correct client (127.0.0.1) queries a store one request after another,
 * and a probe asks `/health/liveness` every 100 ms. Prints the correct client's latency percentiles, what the flood
 * was answered, and whether liveness ever failed to answer within a second or said DOWN. Goal: the correct client's
 * p99 under 1 s, liveness always answering.
 *
 *   node dist/bench/http-security/login-flood-bench.js [--seconds=30] [--connections=8] [--unknown-users=0] [--flood-addresses=1]
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { hashPassword } from "../../kernel/http/auth/password-hash";
import { writeUser } from "../../kernel/http/auth/users-file";
import { runSluice } from "../../test/helpers/sluice-process";
import { EXAMPLES_PACKAGE } from "../../test/helpers/streams";
import { numberArgument } from "../bench-arguments";

const SECONDS = numberArgument("seconds", 30);
const CONNECTIONS = numberArgument("connections", 8);
const UNKNOWN_USERS = numberArgument("unknown-users", 0) === 1;
/** The flood's connections spread over 127.0.0.2 … 127.0.0.<1 + this>, each address throttled on its own. */
const FLOOD_ADDRESSES = numberArgument("flood-addresses", 1);
const PASSWORD = "the correct password";
const QUERY = JSON.stringify({ type: "key_value", query: { get: { key: "kafka" } } });
const PROBE_TIMEOUT_MS = 1_000;

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

interface Answer {
  status: number;
  ms: number;
}

function send(url: string, options: http.RequestOptions, body?: string, timeoutMs = 60_000): Promise<Answer> {
  const sent = performance.now();
  return new Promise((resolve) => {
    const req = http.request(url, options, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - sent }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, ms: performance.now() - sent }));
    req.end(body);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-login-flood-bench-"));
  const users = path.join(dir, "users");
  writeUser(users, "vera", await hashPassword(PASSWORD), "viewer");
  const sluice = runSluice([
    "start",
    `--plugins.packages=${EXAMPLES_PACKAGE}`,
    "--server.port=0",
    `--streams.state.dir=${path.join(dir, "state")}`,
    "--server.auth.mechanism=basic",
    `--server.auth.users.file=${users}`,
  ]);
  try {
    const url = await sluice.url(60_000);
    const queryUrl = `${url}/api/v1/applications/wordcount/stores/counts`;
    const correctAgent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: "127.0.0.1" });
    const floodAgents = Array.from({ length: CONNECTIONS }, (_, index) => new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.0.${2 + (index % FLOOD_ADDRESSES)}` }));
    const ask = () => send(queryUrl, { method: "POST", agent: correctAgent, headers: { authorization: basic("vera", PASSWORD), "content-type": "application/json" } }, QUERY);
    const warm = await ask();
    if (warm.status !== 200) throw new Error(`the correct client was answered ${warm.status}`);

    const until = performance.now() + SECONDS * 1000;
    const floodStatuses = new Map<number, number>();
    let attempt = 0;
    const flood = floodAgents.map(async (floodAgent) => {
      while (performance.now() < until) {
        const user = UNKNOWN_USERS ? `nobody-${attempt}` : "vera";
        const answer = await send(`${url}/api/v1/streams`, { agent: floodAgent, headers: { authorization: basic(user, `guess-${attempt++}`) } });
        floodStatuses.set(answer.status, (floodStatuses.get(answer.status) ?? 0) + 1);
      }
    });
    const latencies: number[] = [];
    const correctStatuses = new Map<number, number>();
    const correct = (async () => {
      while (performance.now() < until) {
        const answer = await ask();
        latencies.push(answer.ms);
        correctStatuses.set(answer.status, (correctStatuses.get(answer.status) ?? 0) + 1);
      }
    })();
    let probes = 0;
    let missed = 0;
    let down = 0;
    let slowestProbeMs = 0;
    const probe = (async () => {
      while (performance.now() < until) {
        const answer = await send(`${url}/health/liveness`, { agent: false, localAddress: "127.0.0.1" }, undefined, PROBE_TIMEOUT_MS);
        probes++;
        slowestProbeMs = Math.max(slowestProbeMs, answer.ms);
        if (answer.status === 0) missed++;
        else if (answer.status !== 200) down++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await Promise.all([...flood, correct, probe]);
    correctAgent.destroy();
    for (const agent of floodAgents) agent.destroy();

    const sorted = [...latencies].sort((a, b) => a - b);
    const shown = (statuses: Map<number, number>) => [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status || "no answer"}: ${count}`).join(", ");
    console.log(`wrong-password flood (${UNKNOWN_USERS ? "a new unknown user each time" : "user vera"}): ${CONNECTIONS} connections from ${FLOOD_ADDRESSES} address(es) for ${SECONDS} s, ${attempt} attempts answered (${shown(floodStatuses)})`);
    console.log(`correct client (127.0.0.1): ${latencies.length} queries (${shown(correctStatuses)}), p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`);
    console.log(`/health/liveness: ${probes} probes, ${missed} unanswered within ${PROBE_TIMEOUT_MS} ms, ${down} DOWN, slowest ${slowestProbeMs.toFixed(1)} ms — ${missed + down === 0 ? "never stopped answering" : "STOPPED ANSWERING"}`);
  } finally {
    sluice.child.kill("SIGTERM");
    await sluice.exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
