/**
 * A closed-loop HTTP load generator (autocannon-like): `connections` keep-alive sockets each send GET `url`
 * back to back for `seconds`; answers requests/s and latency percentiles. Runs as a forked child so it never
 * shares the server's event loop: the parent sends a LoadRequest and receives a LoadResult.
 */
import http from "node:http";

export interface LoadRequest {
  url: string;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  url: string;
  requests: number;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export async function runLoad({ url, connections, seconds }: LoadRequest): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const once = () =>
    new Promise<void>((resolve) => {
      const sent = process.hrtime.bigint();
      http
        .get(url, { agent }, (res) => {
          res.on("data", () => undefined);
          res.on("end", () => {
            if (res.statusCode === 200) latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
            else errors++;
            resolve();
          });
        })
        .on("error", () => {
          errors++;
          resolve();
        });
    });
  const loop = async () => {
    while (process.hrtime.bigint() < deadline) await once();
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return {
    url,
    requests: latencies.length,
    errors,
    requestsPerSecond: latencies.length / elapsed,
    p50Ms: percentile(0.5),
    p99Ms: percentile(0.99),
    maxMs: latencies[latencies.length - 1] ?? NaN,
  };
}

if (require.main === module && process.send) {
  process.on("message", (request: LoadRequest) => {
    void runLoad(request).then((result) => {
      process.send?.(result);
      process.disconnect();
    });
  });
}
