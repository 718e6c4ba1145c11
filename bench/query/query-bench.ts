/**
 * Interactive query figures (issue #6): local `get` and `range` (100 keys) requests/s and p50/p99 under load,
 * the heap allocated per local `get` and per baseline request, a `get` routed to the other instance, and `all`
 * over the whole store, plain and compressed (time, bytes sent and RSS growth of this process, which hosts the
 * server). Sluice runs in this
 * process with the example applications on a broker in a worker thread; `words` has 2 partitions so that a
 * second instance can take one. The load comes from a forked child, and the paced load from wrk when it is
 * installed (see wrk-load.ts). The paced get is compared with the constant route `GET /api/v1` paced the same way,
 * in windows one after the other and in one window where both are paced at once (each at the rate, 2 × rate in all).
 *
 *   node dist/bench/query/query-bench.js [--keys=100000] [--seconds=5] [--rate=2000] [--connections=16] [--rounds=5]
 */
import http from "node:http";
import zlib from "node:zlib";
import { Kafka, logLevel } from "kafkajs";
import { startBrokerInWorker } from "../../providers/broker";
import { eventually } from "../../test/helpers/eventually";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../test/helpers/streams";
import { loadInChild as load, type HttpLoadRequest, type HttpLoadResult } from "../http-load";
import { pacedWithWrk } from "../wrk-load";
import { allocatedDuring, collectGarbage } from "./heap-allocation";
import { numberArgument } from "../bench-arguments";

const KEYS = numberArgument("keys", 100_000);
const SECONDS = numberArgument("seconds", 5);
const RATE = numberArgument("rate", 2_000);
const CONNECTIONS = numberArgument("connections", 16);
const ROUNDS = numberArgument("rounds", 5);
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

/** The body of a POST as it arrives, with the encoding the server chose. */
function postRaw(url: string, text: string, acceptEncoding: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers: { "Content-Type": "application/json", "Accept-Encoding": acceptEncoding } }, resolve);
    request.on("error", reject);
    request.end(text);
  });
}

/**
 * Time of an `all` (to the last decoded byte), the bytes that crossed the connection, and how much this process's
 * RSS grew while answering it. `acceptEncoding`: identity, gzip or br.
 */
async function timeAll(sluice: SluiceWithExamples, options: object, acceptEncoding = "identity") {
  collectGarbage();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
  const started = process.hrtime.bigint();
  const response = await postRaw(storeUrl(sluice), body({ all: {} }, options), acceptEncoding);
  const encoding = response.headers["content-encoding"] ?? "identity";
  let wireBytes = 0;
  response.on("data", (chunk: Buffer) => (wireBytes += chunk.length));
  const decoded = encoding === "br" ? response.pipe(zlib.createBrotliDecompress()) : encoding === "gzip" ? response.pipe(zlib.createGunzip()) : response;
  let bytes = 0;
  let tail = "";
  for await (const chunk of decoded as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    tail = (tail + chunk.toString("utf8")).slice(-200);
    peak = Math.max(peak, process.memoryUsage.rss());
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(sampler);
  const records = Number(/"total":(\d+)\},"took"/.exec(tail)?.[1] ?? NaN);
  return { ms, records, bytes, wireBytes, encoding, rssGrowthMb: (peak - baseline) / 2 ** 20 };
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
    // Each round also paces both routes at once, each at the rate from its own wrk: the slow requests of a window
    // are those that waited for a CPU (the machine's other work), so only requests that lived through the same
    // stretch of it compare the two routes' costs; windows taken one after the other pair different stretches.
    // In the shared window a stall of the main thread delays both routes alike whatever caused it, a get's own
    // included: only the sequential windows show a stall that gets cause and the constant route does not.
    const baselinePaced = { url: `${first.url}/api/v1`, bodies: [], seconds: SECONDS, connections: 16, rate: RATE };
    const getPaced = { url, bodies: gets, seconds: SECONDS, connections: 16, rate: RATE };
    const p99s = { baseline: [] as number[], get: [] as number[] };
    const together = { baseline: [] as number[], get: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      p99s.baseline.push((await paced(`round ${round}: baseline GET /api/v1`, baselinePaced)).p99Ms);
      p99s.get.push((await paced(`round ${round}: local get`, getPaced)).p99Ms);
      const [baseline, get] = await Promise.all([paced(`round ${round}, together: baseline GET /api/v1`, baselinePaced), paced(`round ${round}, together: local get`, getPaced)]);
      together.baseline.push(baseline.p99Ms);
      together.get.push(get.p99Ms);
    }
    const median = (values: number[], digits = 2) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(digits);
    const ratiosOf = (p99: { baseline: number[]; get: number[] }) => p99.get.map((get, round) => get / p99.baseline[round]);
    const roundsOf = (ratios: number[]) => `${median(ratios)} (rounds: ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")})`;
    console.log(`paced at ${RATE} req/s over ${ROUNDS} rounds: median p99 local get ${median(p99s.get)} ms, baseline ${median(p99s.baseline)} ms`);
    // A stretch of the machine's own noise lands in one window or the other: each round's two windows, taken side
    // by side, make a ratio less exposed to it than the ratio of the two medians.
    console.log(`p99 local get / baseline, median of the ${ROUNDS} rounds' ratios: ${roundsOf(ratiosOf(p99s))}`);
    console.log(`paced together at ${RATE} req/s each over ${ROUNDS} rounds: median p99 local get ${median(together.get)} ms, baseline ${median(together.baseline)} ms`);
    console.log(`p99 local get / baseline paced together, median of the ${ROUNDS} rounds' ratios: ${roundsOf(ratiosOf(together))}`);
    // The runtime's own work now and then (commits, fetches) lands in one window or the other: medians of three.
    const allocation = { baseline: [] as number[], get: [] as number[] };
    for (let run = 1; run <= 3; run++) {
      allocation.baseline.push(await allocationPerRequest(`allocation run ${run}: baseline GET /api/v1`, { url: `${first.url}/api/v1`, bodies: [], seconds: SECONDS, connections: 16, rate: RATE }));
      allocation.get.push(await allocationPerRequest(`allocation run ${run}: local get`, { url, bodies: gets, seconds: SECONDS, connections: 16, rate: RATE }));
    }
    console.log(`heap allocated per request (median of 3 runs): local get ${median(allocation.get, 0)} bytes, baseline ${median(allocation.baseline, 0)} bytes`);
    report(`local get, closed loop, ${CONNECTIONS} connections`, await load({ url, bodies: gets, seconds: SECONDS, connections: CONNECTIONS }));
    report(`local range (100 keys), closed loop, ${CONNECTIONS} conn.`, await load({ url, bodies: ranges, seconds: SECONDS, connections: CONNECTIONS }));

    // Each encoding in turn, three rounds, since this machine's speed drifts.
    const allTimes = new Map<string, number[]>();
    for (let run = 1; run <= 3; run++) {
      for (const acceptEncoding of ["identity", "gzip", "br"]) {
        const all = await timeAll(first, {}, acceptEncoding);
        allTimes.set(acceptEncoding, [...(allTimes.get(acceptEncoding) ?? []), all.ms]);
        console.log(
          `all over ${all.records} keys (run ${run}, ${all.encoding.padEnd(8)}): ${all.ms.toFixed(0).padStart(5)} ms, ${(all.bytes / 2 ** 20).toFixed(1)} MiB of JSON, ` +
            `${(all.wireBytes / 2 ** 20).toFixed(2)} MiB sent, RSS growth ${all.rssGrowthMb.toFixed(1)} MiB`,
        );
      }
    }
    console.log(`all, median of 3: ${[...allTimes].map(([encoding, times]) => `${encoding} ${median(times, 0)} ms`).join(", ")}`);
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
