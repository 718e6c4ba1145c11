/**
 * What `num.stream.threads` gains: the benches' stateless topology (mapValues + filter → topic) on `records` records
 * of four partitions, run with 1 and with 2 stream threads in turns, on a `sluice broker` in another process (so the
 * broker's work is not on this process's cores' budget twice). Two threads run in two worker threads (the provider
 * loads from its module), one thread on the main event loop.
 *
 * It times the steady state, not the start: each run starts paused, waits until it is RUNNING with every thread
 * assigned its tasks (a thread that joined first would otherwise process most of the input alone before the
 * rebalance that gives the other its share), then resumes and is timed from the resume until the output topic holds
 * every record. Prints each round's records/s and the median of the per-round ratios 2 threads / 1 thread.
 * Four million records by default: a run of one million lasts about a second, in which the threads' first fetches and
 * the last commit weigh as much as the processing (a median of 0.82× on an idle 2-core machine, against 1.48× for
 * four million). Prints, never asserts.
 * Usage: node dist/bench/runtime/stream-threads-bench.js [records=4000000] [rounds=3]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Admin } from "kafkajs";
import { StreamsRuntime } from "../../providers/streams";
import { produceInput, statelessValue } from "./bench-input";
import { median, rate, seconds, type Timing } from "./runtime-timing";
import { STATELESS_BENCH_SOURCE, STATELESS_INPUT, StatelessBenchProvider } from "./stateless-topology";

const SLUICE = path.resolve(__dirname, "..", "..", "..", "bin", "sluice.js");
const PARTITIONS = 4;
const THREADS = [1, 2] as const;
/** Enough records for seconds of processing, so that the steady state outweighs the first fetches and the last commit. */
export const STEADY_STATE_RECORDS = 4_000_000;

/** A `sluice broker` child on an ephemeral port, memory store. */
function startBrokerProcess(): Promise<{ bootstrap: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [SLUICE, "broker", "--broker.port=0", "--broker.storage=memory"], { stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let log = "";
    child.stderr!.on("data", (chunk) => {
      log += chunk;
      const port = /"msg":"broker listening".*?"port":(\d+)/.exec(log)?.[1];
      if (port) {
        log = "";
        resolve({ bootstrap: `127.0.0.1:${port}`, stop: () => (child.kill("SIGTERM"), exited) });
      }
    });
    child.once("exit", (code) => reject(new Error(`the broker exited with ${code}: ${log}`)));
  });
}

export interface StreamThreadsFigures {
  /** Per round, the timing of each thread count, in THREADS order. */
  rounds: Timing[][];
  records: number;
}

/** A few ms between looks at a condition: the bench's clock, with no busy loop. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The sum of `topic`'s end offsets: the records written to it. */
async function written(admin: Admin, topic: string): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic).catch(() => []);
  return offsets.reduce((sum, { high }) => sum + Number(high), 0);
}

/** One run with `threads` stream threads, started paused and timed from its resume (when every thread has its tasks) to its last output. */
async function timeSteadyState(bootstrap: string, admin: Admin, stateDir: string, applicationId: string, threads: number, records: number): Promise<Timing> {
  const output = `${applicationId}-out`;
  const runtime = new StreamsRuntime({
    bootstrapServers: [bootstrap],
    streamsConfig: { "state.dir": stateDir, "num.stream.threads": threads },
    threadPlacement: () => ({ source: STATELESS_BENCH_SOURCE }),
  });
  const app = runtime.addProvider(new StatelessBenchProvider(), { "application.id": applicationId, "bench.input": STATELESS_INPUT, "bench.output": output });
  try {
    app.pause();
    await runtime.start();
    for (;;) {
      const status = app.status();
      if (status.state === "ERROR") throw new Error(`${applicationId} failed: ${app.exception}`);
      if (status.state === "RUNNING" && status.threads.length === threads && status.threads.every((thread) => thread.activeTasks.length > 0)) break;
      await tick();
    }
    const resumed = Date.now();
    app.resume();
    let first = 0;
    for (;;) {
      const done = await written(admin, output);
      if (done > 0 && first === 0) first = Date.now();
      if (done >= records) return { firstSeconds: seconds(resumed, first), totalSeconds: seconds(resumed, Date.now()) };
      if (app.state === "ERROR") throw new Error(`${applicationId} failed: ${app.exception}`);
      await tick();
    }
  } finally {
    await runtime.close();
  }
}

/** Runs the stateless topology with 1 and 2 stream threads, in turns, `rounds` times, on a broker process of its own. */
export async function timeStreamThreads(records: number, rounds: number): Promise<StreamThreadsFigures> {
  const broker = await startBrokerProcess();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-threads-"));
  const kafka = new Kafka({ clientId: "bench-threads", brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: STATELESS_INPUT, numPartitions: PARTITIONS }] });
    const producer = kafka.producer();
    await producer.connect();
    await produceInput(producer, STATELESS_INPUT, records, PARTITIONS, statelessValue);
    await producer.disconnect();
    const timings: Timing[][] = [];
    for (let round = 1; round <= rounds; round++) {
      const timing: Timing[] = [];
      for (const threads of THREADS) timing.push(await timeSteadyState(broker.bootstrap, admin, stateDir, `bench-threads-${threads}-${round}`, threads, records));
      timings.push(timing);
    }
    return { rounds: timings, records };
  } finally {
    await admin.disconnect();
    await broker.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Prints each round and the median ratio. */
export function printStreamThreads({ rounds, records }: StreamThreadsFigures): void {
  const ratios: number[] = [];
  const first = (timing: Timing) => `first output ${timing.firstSeconds.toFixed(2)} s after the resume`;
  for (const [index, round] of rounds.entries()) {
    const [one, two] = round.map((timing) => rate(records, timing));
    ratios.push(two / one);
    console.log(`round ${index + 1}: stateless topology, steady state, broker in another process: 1 stream thread (main event loop) ${Math.round(one)} records/s (${first(round[0])}), 2 stream threads (worker threads) ${Math.round(two)} records/s (${first(round[1])}): ${(two / one).toFixed(2)}×`);
  }
  console.log(`stateless topology, steady state, 2 stream threads in worker threads / 1 on the main event loop (broker in another process): median ${median(ratios).toFixed(2)}× of ${rounds.length} rounds`);
}

if (require.main === module) {
  timeStreamThreads(Number(process.argv[2] ?? STEADY_STATE_RECORDS), Number(process.argv[3] ?? 3))
    .then(printStreamThreads)
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
