/**
 * Requests/s and latency of GET /api/v1/streams/{id} and of its /metrics (JSON and Prometheus) next to a bare
 * polka route answering a constant JSON body (and Sluice's own constant GET /api/v1, which shows what the kernel's
 * request pipeline costs by itself), in one run: Sluice in this process with the example
 * applications on the embedded in-memory broker, the bare route on its own polka server in the same process,
 * and the load from a forked child (keep-alive connections).
 *
 *   node dist/bench/rest/streams-endpoints.js [--rounds=5] [--seconds=2] [--connections=10]
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import polka = require("polka");
import { Kernel } from "../../kernel/kernel";
import { loadInChild, type HttpLoadResult as LoadResult } from "../http-load";

const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");

function argument(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

/** Per figure, the median over the rounds; errors summed. */
function medianRun(runs: LoadResult[]): Omit<LoadResult, "requests" | "maxMs"> {
  const median = (pick: (run: LoadResult) => number) => {
    const values = runs.map(pick).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)];
  };
  return {
    requestsPerSecond: median((run) => run.requestsPerSecond),
    p50Ms: median((run) => run.p50Ms),
    p99Ms: median((run) => run.p99Ms),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

async function startBareRoute(): Promise<{ url: string; close(): Promise<void> }> {
  const body = JSON.stringify({ id: "bare", state: { state: "RUNNING" } });
  const app = polka().add("GET", "/bare", (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });
  const server = http.createServer(app.handler as http.RequestListener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bare`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function waitForRunning(url: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const response = await fetch(url);
    if (response.ok && ((await response.json()) as { state: { state: string } }).state.state === "RUNNING") return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not reach RUNNING within 30 s`);
}

async function main(): Promise<void> {
  const seconds = Number(argument("seconds", "2"));
  const rounds = Number(argument("rounds", "5"));
  const connections = Number(argument("connections", "10"));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-rest-"));
  const kernel = new Kernel({
    env: {},
    root: REPO_ROOT,
    overrides: {
      "server.port": "0",
      "log.level": "silent",
      "plugins.packages": path.join(REPO_ROOT, "dist", "providers", "examples"),
      "broker.port": "0",
      "broker.storage": "memory",
      "streams.state.dir": stateDir,
    },
  });
  await kernel.start();
  const bare = await startBareRoute();
  try {
    const base = `http://${kernel.serverAddress()}/api/v1/streams/wordcount`;
    await waitForRunning(base);
    const targets = [
      { name: "bare polka route (constant JSON)", url: bare.url },
      { name: "GET /api/v1 (Sluice route, constant body)", url: `http://${kernel.serverAddress()}/api/v1` },
      { name: "GET /api/v1/streams/wordcount", url: base },
      { name: "GET /api/v1/streams/wordcount/metrics", url: `${base}/metrics` },
      { name: "GET …/metrics?format=prometheus", url: `${base}/metrics?format=prometheus` },
    ];
    for (const target of targets) await loadInChild({ url: target.url, bodies: [], connections, seconds: 1 });
    // Targets take turns round after round, so drifting load on the machine touches all of them alike.
    const runs = targets.map(() => [] as LoadResult[]);
    for (let round = 0; round < rounds; round++) {
      for (const [index, target] of targets.entries()) runs[index].push(await loadInChild({ url: target.url, bodies: [], connections, seconds }));
    }
    const rows = targets.map((target, index) => ({ name: target.name, ...medianRun(runs[index]) }));
    const bareRate = rows[0].requestsPerSecond;
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}, ${connections} keep-alive connections, ` +
        `${rounds} rounds of ${seconds} s per target (medians of the rounds) after 1 s warm-up`,
    );
    console.table(
      rows.map((row) => ({
        target: row.name,
        "req/s": Math.round(row.requestsPerSecond),
        "vs bare": `${Math.round((row.requestsPerSecond / bareRate) * 100)} %`,
        "p50 ms": row.p50Ms.toFixed(2),
        "p99 ms": row.p99Ms.toFixed(2),
        errors: row.errors,
      })),
    );
  } finally {
    await bare.close();
    await kernel.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
