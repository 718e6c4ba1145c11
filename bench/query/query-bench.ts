/**
 * Interactive query figures (issue #6): local `get` and `range` (100 keys) requests/s and p50/p99 under load,
 * the heap allocated per local `get` and per baseline request, a `get` routed to the other instance, and `all`
 * over the whole store (time and RSS growth of this process, which hosts the server). Sluice runs in this
 * process with the example applications on a broker in a worker thread; `words` has 2 partitions so that a
 * second instance can take one. The load comes from a forked child, and the paced load from wrk when it is
 * installed (see wrk-load.ts).
 *
 *   node dist/bench/query/query-bench.js [--keys=100000] [--seconds=5] [--rate=2000] [--connections=16] [--rounds=5]
 */
import { Kafka, logLevel } from "kafkajs";
import { startBrokerInWorker } from "../../providers/broker";
import { eventually } from "../../test/helpers/eventually";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../test/helpers/streams";
import { loadInChild as load, type HttpLoadRequest, type HttpLoadResult } from "../http-load";
import { pacedWithWrk } from "../wrk-load";
import { allocatedDuring, collectGarbage } from "./heap-allocation";

function argument(name: string, fallback: number): number {
  const prefix = `--${name}=`;
  const given = process.argv.find((arg) => arg.startsWith(prefix));
  return given ? Number(given.slice(prefix.length)) : fallback;
}

const KEYS = argument("keys", 100_000);
const SECONDS = argument("seconds", 5);
const RATE = argument("rate", 2_000);
const CONNECTIONS = argument("connections", 16);
const ROUNDS = argument("rounds", 5);
const WORDS_PER_LINE = 1_000;

const word = (index: number) => `w${String(index).padStart(7, "0")}`;
const storeUrl = (sluice: SluiceWithExamples) => `${sluice.url}/api/v1/applications/wordcount/stores/counts`;
const body = (query: object, options: object = {}) => JSON.stringify({ type: "key_value", set_options: options, query });

function report(name: string, result: HttpLoadResult): void {
  const f = (n: number) => n.toFixed(2);
  console.log(`${name.padEnd(44)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${f(result.p50Ms)} ms  p99 ${f(result.p99Ms)} ms  max ${f(result.maxMs)} ms  errors ${result.errors}`);
}

/** Paced figures come from wrk when it is installed (a C client adds no pauses of its own), else from the Node.js client. */
async function paced(name: string, request: HttpLoadRequest & { rate: number }): Promise<HttpLoadResult> {
  const fromWrk = await pacedWithWrk(request);
  const result = fromWrk ?? (await load({ ...request, connections: 64 }));
  report(`${name}, paced at ${request.rate} req/s (${fromWrk ? "wrk" : "node client; install wrk for a steadier one"})`, result);
  return result;
}

/**
 * Bytes this process (Sluice) allocates per request of a paced run, beyond what it allocates idle over as long
 * (the runtime's own polling): a figure that the machine's drifting speed does not move.
 */
async function allocationPerRequest(name: string, request: HttpLoadRequest & { rate: number }): Promise<number> {
  const idle = await allocatedDuring(() => new Promise((resolve) => setTimeout(resolve, request.seconds * 1000)));
  const busy = await allocatedDuring(() => paced(name, request));
  return (busy.bytes - idle.bytes) / (busy.result.requests + busy.result.errors);
}

async function post(url: string, text: string): Promise<any> {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  return response.json();
}

async function storeSize(sluice: SluiceWithExamples): Promise<number> {
  const answer = await post(storeUrl(sluice), body({ count: {} }));
  return answer.status === "SUCCESS" ? answer.result.success[0].records[0].value : 0;
}

/** Time of an `all` (to the last byte) and how much this process's RSS grew while answering it. */
async function timeAll(sluice: SluiceWithExamples, options: object): Promise<{ ms: number; records: number; bytes: number; rssGrowthMb: number }> {
  collectGarbage();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
  const started = process.hrtime.bigint();
  const response = await fetch(storeUrl(sluice), { method: "POST", headers: { "Content-Type": "application/json" }, body: body({ all: {} }, options) });
  let bytes = 0;
  let tail = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    tail = (tail + Buffer.from(chunk).toString("utf8")).slice(-200);
    peak = Math.max(peak, process.memoryUsage.rss());
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(sampler);
  const records = Number(/"total":(\d+)\},"took"/.exec(tail)?.[1] ?? NaN);
  return { ms, records, bytes, rssGrowthMb: (peak - baseline) / 2 ** 20 };
}

async function main(): Promise<void> {
  const broker = await startBrokerInWorker({ port: 0, storage: "memory", initialRebalanceDelayMs: 0 });
  const bootstrap = `127.0.0.1:${broker.port}`;
  const kafka = new Kafka({ clientId: "query-bench", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "words", numPartitions: 2 }], waitForLeaders: true });
  await admin.disconnect();
  const first = await startSluiceWithExamples({ "streams.bootstrap.servers": bootstrap, "streams.auto.create.topics": "true" });
  let second: SluiceWithExamples | undefined;
  try {
    const filling = Date.now();
    const lines = Array.from({ length: Math.ceil(KEYS / WORDS_PER_LINE) }, (_, line) =>
      Array.from({ length: Math.min(WORDS_PER_LINE, KEYS - line * WORDS_PER_LINE) }, (_, i) => word(line * WORDS_PER_LINE + i)).join(" "),
    );
    for (let start = 0; start < lines.length; start += 10) await first.produce("words", lines.slice(start, start + 10).map((value) => ({ value })));
    await eventually(async () => (await storeSize(first)) >= KEYS, { timeoutMs: 300_000, intervalMs: 500, what: `${KEYS} keys in the counts store` });
    console.log(`store filled with ${KEYS} keys in ${((Date.now() - filling) / 1000).toFixed(1)} s (one instance, 2 partitions)`);

    const randomKeys = Array.from({ length: 2_000 }, () => word(Math.floor(Math.random() * KEYS)));
    const gets = randomKeys.map((key) => body({ get: { key } }));
    const ranges = randomKeys.map((key) => {
      const from = Math.min(Number(key.slice(1)), KEYS - 100);
      return body({ range: { key_from: word(from), key_to: word(from + 99) } });
    });
    const url = storeUrl(first);
    await load({ url, bodies: gets, seconds: 1, connections: CONNECTIONS });
    // The fill left a large old generation of garbage: collected now, not by a mark-compact inside a timed round.
    collectGarbage();
    report(`baseline GET /api/v1, closed loop, ${CONNECTIONS} conn.`, await load({ url: `${first.url}/api/v1`, bodies: [], seconds: SECONDS, connections: CONNECTIONS }));
    // The floor of the paced figures: the same pacing against a constant route measures the client and the machine.
    // They take turns for several rounds, since this machine's speed drifts from minute to minute.
    const p99s = { baseline: [] as number[], get: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      p99s.baseline.push((await paced(`round ${round}: baseline GET /api/v1`, { url: `${first.url}/api/v1`, bodies: [], seconds: SECONDS, connections: 16, rate: RATE })).p99Ms);
      p99s.get.push((await paced(`round ${round}: local get`, { url, bodies: gets, seconds: SECONDS, connections: 16, rate: RATE })).p99Ms);
    }
    const median = (values: number[], digits = 2) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(digits);
    console.log(`paced at ${RATE} req/s over ${ROUNDS} rounds: median p99 local get ${median(p99s.get)} ms, baseline ${median(p99s.baseline)} ms`);
    // The runtime's own work now and then (commits, fetches) lands in one window or the other: medians of three.
    const allocation = { baseline: [] as number[], get: [] as number[] };
    for (let run = 1; run <= 3; run++) {
      allocation.baseline.push(await allocationPerRequest(`allocation run ${run}: baseline GET /api/v1`, { url: `${first.url}/api/v1`, bodies: [], seconds: SECONDS, connections: 16, rate: RATE }));
      allocation.get.push(await allocationPerRequest(`allocation run ${run}: local get`, { url, bodies: gets, seconds: SECONDS, connections: 16, rate: RATE }));
    }
    console.log(`heap allocated per request (median of 3 runs): local get ${median(allocation.get, 0)} bytes, baseline ${median(allocation.baseline, 0)} bytes`);
    report(`local get, closed loop, ${CONNECTIONS} connections`, await load({ url, bodies: gets, seconds: SECONDS, connections: CONNECTIONS }));
    report(`local range (100 keys), closed loop, ${CONNECTIONS} conn.`, await load({ url, bodies: ranges, seconds: SECONDS, connections: CONNECTIONS }));

    for (let run = 1; run <= 3; run++) {
      const all = await timeAll(first, {});
      console.log(`all over ${all.records} keys (run ${run}): ${all.ms.toFixed(0)} ms, ${(all.bytes / 2 ** 20).toFixed(1)} MiB of JSON, RSS growth ${all.rssGrowthMb.toFixed(1)} MiB`);
    }
    const limited = await timeAll(first, { limit: 10 });
    console.log(`all with limit 10: ${limited.ms.toFixed(1)} ms, ${limited.records} records`);

    second = await startSluiceWithExamples({ "streams.bootstrap.servers": bootstrap, "streams.auto.create.topics": "true" });
    const other = second;
    await eventually(
      async () => {
        const answer = await post(storeUrl(other), body({ count: {} }));
        return answer.status === "SUCCESS" && answer.result.success[0].records[0].value > 0;
      },
      { timeoutMs: 120_000, intervalMs: 500, what: "the second instance to restore its partition" },
    );
    const remoteKeys: string[] = [];
    for (const key of randomKeys) {
      if (remoteKeys.length >= 200) break;
      if ((await post(url, body({ get: { key } }))).status === "NO_RESULT") remoteKeys.push(key);
    }
    const routed = remoteKeys.map((key) => body({ get: { key } }, { remote_access_allowed: true }));
    report(`remote-routed get, closed loop, ${CONNECTIONS} conn.`, await load({ url, bodies: routed, seconds: SECONDS, connections: CONNECTIONS }));
    await paced("remote-routed get", { url, bodies: routed, seconds: SECONDS, connections: 16, rate: 500 });
  } finally {
    await second?.close();
    await first.close();
    await broker.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
