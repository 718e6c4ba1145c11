/**
 * Child process of the SSE bench: opens `count` raw HTTP subscriptions to one event stream and records, for
 * every event, the delay from the topology's send to its receipt here. Talks to the parent over IPC:
 * sends `{ ready }` once every subscription is open, answers `report` with the figures.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";

/** The `sentAt` of a Tick (ticks-provider.ts) in a data line. */
const SENT_AT = /"sentAt":([\d.]+)/;

export interface FleetReport {
  /** Delivery latency, milliseconds. */
  p50: number;
  p99: number;
  max: number;
  received: number;
  /** Events each subscriber received. */
  perSubscriber: number[];
  /** CPU seconds this process used since its subscriptions were open: its share of the latency. */
  cpuSeconds: number;
}

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const latencies: number[] = [];
const perSubscriber = new Array<number>(count).fill(0);
let cpuAtReady: NodeJS.CpuUsage | undefined;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function subscribe(index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { Accept: "text/event-stream" } }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`subscription ${index}: HTTP ${response.statusCode}`));
        response.setEncoding("utf8");
        let pending = "";
        response.on("data", (chunk: string) => {
          const now = performance.timeOrigin + performance.now();
          pending += chunk;
          const lastBreak = pending.lastIndexOf("\n");
          if (lastBreak < 0) return;
          for (const line of pending.slice(0, lastBreak).split("\n")) {
            // A regex instead of JSON.parse keeps this process's own cost out of the figures as far as it can.
            const sentAt = line.startsWith("data: ") ? SENT_AT.exec(line) : null;
            if (!sentAt) continue;
            latencies.push(now - Number(sentAt[1]));
            perSubscriber[index]++;
          }
          pending = pending.slice(lastBreak + 1);
        });
        resolve();
      })
      .on("error", reject);
  });
}

function report(): FleetReport {
  const sorted = Float64Array.from(latencies).sort();
  const at = (p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]);
  const cpu = process.cpuUsage(cpuAtReady);
  return { p50: at(0.5), p99: at(0.99), max: at(1), received: sorted.length, perSubscriber, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

async function main(): Promise<void> {
  for (let opened = 0; opened < count; opened += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - opened) }, (_, i) => subscribe(opened + i)));
  }
  process.on("message", (message) => {
    if (message === "report") process.send!({ report: report() });
    if (message === "exit") process.exit(0);
  });
  cpuAtReady = process.cpuUsage();
  process.send!({ ready: true });
}

main().catch((error) => {
  process.send!({ error: String(error) });
  process.exit(1);
});
