/**
 * HTTP load for the benches, from a forked child so it never shares the server's event loop: GETs `url`, or POSTs
 * bodies (taken round-robin) over keep-alive connections, either paced at a fixed rate (open loop: a request
 * leaves every 1/rate s whatever the answers) or back to back on `connections` sockets (closed loop).
 */
import { fork } from "node:child_process";
import http from "node:http";
import https from "node:https";

export interface HttpLoadRequest {
  url: string;
  /** Query bodies to POST; empty: plain GETs of `url` (a baseline of the HTTP pipeline alone). */
  bodies: string[];
  seconds: number;
  connections: number;
  /** Requests per second; omitted: closed loop. */
  rate?: number;
  /** Sent with every request (credentials). */
  headers?: Record<string, string>;
  /** PEM of the CA that signed the server's certificate, for https URLs. */
  ca?: string;
}

export interface HttpLoadResult {
  requests: number;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export async function runHttpLoad({ url, bodies, seconds, connections, rate, headers: extra, ca }: HttpLoadRequest): Promise<HttpLoadResult> {
  const secure = url.startsWith("https:");
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: connections, ca }) : new http.Agent({ keepAlive: true, maxSockets: connections });
  const client = secure ? https : http;
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const send = () =>
    new Promise<void>((resolve) => {
      const body = bodies.length > 0 ? bodies[next++ % bodies.length] : "";
      const headers = { ...extra, ...(body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {}) };
      const sent = process.hrtime.bigint();
      const request = client.request(url, { method: body ? "POST" : "GET", agent, headers }, (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => {
          if (res.statusCode === 200 && (!body || text.includes('"status":"SUCCESS"'))) latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
          else errors++;
          resolve();
        });
      });
      request.on("error", () => {
        errors++;
        resolve();
      });
      request.end(body);
    });
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  if (rate === undefined) {
    const loop = async () => {
      while (process.hrtime.bigint() < deadline) await send();
    };
    await Promise.all(Array.from({ length: connections }, loop));
  } else {
    const inFlight: Promise<void>[] = [];
    const total = Math.round(rate * seconds);
    for (let index = 0; index < total; index++) {
      const due = started + BigInt(Math.round((index * 1e9) / rate));
      const wait = Number(due - process.hrtime.bigint()) / 1e6;
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      inFlight.push(send());
    }
    await Promise.all(inFlight);
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { requests: latencies.length, errors, requestsPerSecond: latencies.length / elapsed, p50Ms: percentile(0.5), p99Ms: percentile(0.99), maxMs: latencies[latencies.length - 1] ?? NaN };
}

/** Runs the load in a child process and answers its result. */
export function loadInChild(request: HttpLoadRequest): Promise<HttpLoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename);
    child.once("message", (result) => resolve(result as HttpLoadResult));
    child.once("error", reject);
    child.send(request);
  });
}

if (require.main === module && process.send) {
  process.on("message", (request: HttpLoadRequest) => {
    void runHttpLoad(request).then((result) => {
      process.send?.(result);
      process.disconnect();
    });
  });
}
