/**
 * One run of a bench topology by Sluice or by Kafka Streams, on inputs produced beforehand, timed from the first
 * input record processed to the last output record read back (an OutputReader): the application's start-up (a JVM,
 * worker threads, the group's join) is not counted, its commit interval and producer's linger are. Each side's
 * processed count is looked at every 5 ms, but an application busy with its first batch can be seen late, with
 * many records already processed: the run also gives that count, so that the rate leaves those records out.
 *
 * - Sluice: a StreamsRuntime per member, each in a worker thread of this process (WorkerMembers); "2 threads" is two
 *   members of one group, as Sluice has no num.stream.threads yet (#37). Its first input is the first time the
 *   members' processed count is above zero (they report every 5 ms).
 * - Kafka Streams: reference/…/bench/PeerStreamsApp in a JVM of its own with `num.stream.threads`, which prints when
 *   its threads processed their first record (it looks every 5 ms).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startKafkaTool } from "../../test/helpers/kafka-tools";
import { WorkerMembers, type MemberApplication } from "../runtime/worker-members";
import { OutputReader, type ExpectedOutput } from "./output-reader";

/** Kafka's own JVM settings (kafka-run-class.sh's KAFKA_JVM_PERFORMANCE_OPTS), for its broker and Kafka Streams alike. */
export const KAFKA_JVM_OPTIONS = "-server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent";
/** Kafka Streams' heap. */
export const STREAMS_HEAP = "-Xms1g -Xmx1g";
const PEER_MAIN = "dev.sluice.reference.bench.PeerStreamsApp";
/** How long Kafka Streams has to close after SIGTERM before it is killed. */
const CLOSE_GRACE_MS = 30_000;

export interface StreamsRun {
  /** Where the run's input is and where its output goes (a topic the run's reader reads). */
  bootstrap: string;
  topology: MemberApplication["topology"];
  applicationId: string;
  input: string;
  output: string;
  threads: number;
  /** Settings both applications get: the record cache and the commit interval. */
  streamsConfig: Record<string, number>;
  expected: ExpectedOutput;
}

export interface RunTiming {
  /** Seconds from the first time the application was seen to have processed input to the last output read back. */
  seconds: number;
  /** Records (of every sub-topology) it had processed when it was first seen to have processed any. */
  processedAtFirst: number;
}

/** Runs `run` with Sluice. */
export async function runSluice(run: StreamsRun): Promise<RunTiming> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-peers-"));
  const reader = new OutputReader(run.bootstrap, run.output, run.expected);
  let firstInput = 0;
  let processedAtFirst = 0;
  const application: MemberApplication = { topology: run.topology, applicationId: run.applicationId, input: run.input, output: run.output, streamsConfig: run.streamsConfig };
  const members = new WorkerMembers(run.bootstrap.split(","), stateDir, application, run.threads, (counts) => {
    if (firstInput > 0 || !counts.some((count) => count > 0)) return;
    firstInput = Date.now();
    processedAtFirst = counts.reduce((sum, count) => sum + count, 0);
  });
  try {
    const lastOutput = await Promise.race([reader.complete, members.failed]);
    return { seconds: (lastOutput - firstInput) / 1000, processedAtFirst };
  } finally {
    reader.stop();
    await members.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Runs `run` with Kafka Streams. */
export async function runKafkaStreams(run: StreamsRun): Promise<RunTiming> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "kafka-streams-peers-"));
  const reader = new OutputReader(run.bootstrap, run.output, run.expected);
  const configs = Object.entries({ ...run.streamsConfig, "num.stream.threads": run.threads }).map(([name, value]) => `${name}=${value}`);
  const { child, result } = startKafkaTool("class", [PEER_MAIN, run.bootstrap, run.applicationId, stateDir, run.topology, run.input, run.output, ...configs], {
    env: { KAFKA_HEAP_OPTS: STREAMS_HEAP, KAFKA_JVM_OPTS: KAFKA_JVM_OPTIONS },
    timeoutMs: 60 * 60_000,
  });
  const exited = result.then((outcome) => Promise.reject(new Error(`Kafka Streams (${run.applicationId}) exited (${outcome.code}): ${outcome.stderr.slice(-4_000)}`)));
  exited.catch(() => undefined);
  const firstInput = new Promise<{ at: number; processed: number }>((resolve, reject) => {
    let pending = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop()!;
      for (const line of lines.filter((text) => text.startsWith("{"))) {
        const event = JSON.parse(line) as { event: string; at?: number; processed?: number; error?: unknown };
        if (event.event === "first-input") resolve({ at: event.at!, processed: event.processed! });
        if (event.event === "failed") reject(new Error(`Kafka Streams (${run.applicationId}) failed: ${JSON.stringify(event.error)}`));
      }
    });
  });
  try {
    const [first, last] = await Promise.race([Promise.all([firstInput, reader.complete]), exited]);
    return { seconds: (last - first.at) / 1000, processedAtFirst: first.processed };
  } finally {
    reader.stop();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), CLOSE_GRACE_MS);
      await result.catch(() => undefined);
      clearTimeout(killer);
    }
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}
