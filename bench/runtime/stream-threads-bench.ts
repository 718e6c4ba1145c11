/**
 * What `num.stream.threads` gains: the benches' stateless topology (mapValues + filter → topic) on `records` records
 * of four partitions, run with 1 and with 2 stream threads in turns, on a `sluice broker` in another process (so the
 * broker's work is not on this process's cores' budget twice). Prints each round's records/s and the median of the
 * per-round ratios 2 threads / 1 thread. Sluice's stream threads share the process's one event loop, so the ratio
 * shows what more group members and transactions cost or gain, not a second core.
 * Prints, never asserts.
 * Usage: node dist/bench/runtime/stream-threads-bench.js [records=1000000] [rounds=3]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { produceInput, statelessValue } from "./bench-input";
import { median, rate, startup, timeRuntime, type Timing } from "./runtime-timing";
import { STATELESS_INPUT, statelessRuntime } from "./stateless-topology";

const SLUICE = path.resolve(__dirname, "..", "..", "..", "bin", "sluice.js");
const PARTITIONS = 4;
const THREADS = [1, 2] as const;

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

/** Runs the stateless topology with 1 and 2 stream threads, in turns, `rounds` times, on a broker process of its own. */
export async function timeStreamThreads(records: number, rounds: number): Promise<StreamThreadsFigures> {
  const broker = await startBrokerProcess();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-threads-"));
  try {
    const kafka = new Kafka({ clientId: "bench-threads", brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: STATELESS_INPUT, numPartitions: PARTITIONS }] });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    await produceInput(producer, STATELESS_INPUT, records, PARTITIONS, statelessValue);
    await producer.disconnect();
    const timings: Timing[][] = [];
    for (let round = 1; round <= rounds; round++) {
      const timing: Timing[] = [];
      for (const threads of THREADS) {
        const applicationId = `bench-threads-${threads}-${round}`;
        const runtime = statelessRuntime([broker.bootstrap], stateDir, applicationId, `${applicationId}-out`, "at_least_once", threads);
        timing.push(await timeRuntime(runtime, applicationId, records));
        await runtime.close();
      }
      timings.push(timing);
    }
    return { rounds: timings, records };
  } finally {
    await broker.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Prints each round and the median ratio. */
export function printStreamThreads({ rounds, records }: StreamThreadsFigures): void {
  const ratios: number[] = [];
  for (const [index, round] of rounds.entries()) {
    const [one, two] = round.map((timing) => rate(records, timing));
    ratios.push(two / one);
    console.log(`round ${index + 1}: stateless topology, broker in another process: 1 stream thread ${Math.round(one)} records/s (${startup(round[0])}), 2 stream threads ${Math.round(two)} records/s (${startup(round[1])}): ${(two / one).toFixed(2)}×`);
  }
  console.log(`stateless topology, 2 stream threads / 1 (one event loop, broker in another process): median ${median(ratios).toFixed(2)}× of ${rounds.length} rounds`);
}

if (require.main === module) {
  timeStreamThreads(Number(process.argv[2] ?? 1_000_000), Number(process.argv[3] ?? 3))
    .then(printStreamThreads)
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
