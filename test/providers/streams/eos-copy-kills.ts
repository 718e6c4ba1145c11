/**
 * The stateless exactly-once scenario, on whatever cluster a test brings: test/fixtures/eos-copy (copy-in upper-cased
 * to copy-out) under processing.guarantee=exactly_once_v2, SIGKILLed again and again while records keep arriving,
 * each time started again on its state dir; then every input record is matched with its outputs as a read_committed
 * reader of copy-out sees them. The embedded broker's slow test and the reference tier's run on Apache Kafka share it.
 */
import path from "node:path";
import type { Producer } from "kafkajs";
import { PartitionFetcher } from "../../../providers/kafka-client";
import { eventually } from "../../helpers/eventually";
import { readToEnd, type ReadBack } from "../../helpers/read-to-end";
import { FIXTURES } from "../../helpers/sluice";
import type { SluiceProcess } from "../../helpers/sluice-process";
import { committedRecords, keyCounts } from "./committed-outputs";
import { stopProcess } from "./wordcount-processes";

/** The flags that run eos-copy under exactly_once_v2. */
export const EOS_COPY_FLAGS = [`--plugins.packages=${path.join(FIXTURES, "eos-copy")}`, "--streams.processing.guarantee=exactly_once_v2"];

export interface CopyKillsOptions {
  bootstrap: string;
  /** Connected, writing to copy-in. */
  producer: Producer;
  /** copy-in's and copy-out's partitions. */
  partitions: number;
  kills: number;
  /** How many more outputs each run commits before it is killed. */
  outputsPerRun: number;
  /** Starts eos-copy (with EOS_COPY_FLAGS), on `stateDir` when given; resolves once it serves HTTP. */
  start(stateDir?: string): Promise<{ process: SluiceProcess; stateDir: string }>;
  /** How long a run may take to commit its outputs, and the last one to catch up (default 60 s). */
  timeoutMs?: number;
}

export interface CopyKillsOutcome {
  inputRecords: number;
  /** copy-out as a read_committed reader sees it at the end. */
  outputs: ReadBack[];
  /** Outputs beyond their input's count, inputs without their output, and outputs of no input. */
  duplicates: number;
  lost: number;
  strangers: string[];
}

/** How many records of copy-out a read_committed reader can read now (its partitions' last stable offsets, markers included). */
async function committedEnd(bootstrap: string, partitions: number): Promise<number> {
  const fetcher = new PartitionFetcher({ bootstrapServers: [bootstrap], clientId: "committed-end", isolationLevel: "read_committed" });
  try {
    await fetcher.metadata.refresh(["copy-out"]);
    return (await fetcher.latestOffsets({ "copy-out": [...Array(partitions).keys()] })).reduce((sum, { offset }) => sum + offset, 0);
  } finally {
    fetcher.close();
  }
}

/** Runs the scenario; the last instance is left running (the caller's cleanup stops it with the rest). */
export async function copyUnderKills(options: CopyKillsOptions): Promise<CopyKillsOutcome> {
  const { bootstrap, producer, partitions, kills, outputsPerRun, timeoutMs = 60_000 } = options;
  let sent = 0;
  let feeding = true;
  // The last send that failed: the batch is sent again (the check counts the inputs the topic holds, so a batch stored
  // twice is no false duplicate), and a run that then commits too little names it. A send failing under load used to
  // reject the feeder with nobody awaiting it, and the test process ended without saying why.
  let feedError: unknown;
  // About 5,000 records a second: load the instance keeps up with, so each run is killed mid-stream, not behind.
  const feed = (async () => {
    while (feeding) {
      const messages = Array.from({ length: 200 }, (_, i) => ({ key: `r-${sent + i}`, value: `record ${sent + i}` }));
      const pause = new Promise((resolve) => setTimeout(resolve, 40));
      try {
        await producer.send({ topic: "copy-in", messages, acks: -1 });
        sent += messages.length;
      } catch (error) {
        feedError = error;
      }
      await pause;
    }
  })();
  let instance = await options.start();
  const stateDir = instance.stateDir;
  try {
    for (let kill = 1; kill <= kills; kill++) {
      // Each run commits more before it is killed mid-stream, with records still arriving.
      const before = await committedEnd(bootstrap, partitions);
      await eventually(async () => (await committedEnd(bootstrap, partitions)) >= before + outputsPerRun, { timeoutMs, intervalMs: 50, what: `run ${kill} to commit outputs` }).catch(
        (error: Error) => {
          throw feedError === undefined ? error : new Error(`${error.message}; the feeder's last failed send: ${String(feedError)}`);
        },
      );
      await stopProcess(instance.process, "SIGKILL");
      instance = await options.start(stateDir);
    }
  } finally {
    feeding = false;
    await feed;
  }
  const input = keyCounts((await readToEnd(bootstrap, "copy-in", [...Array(partitions).keys()], "read_uncommitted", timeoutMs)).records);
  const inputRecords = [...input.values()].reduce((sum, n) => sum + n, 0);
  if (inputRecords < sent) throw new Error(`${inputRecords} input records stored, ${sent} acknowledged`);
  // Until every input has its output (or the deadline: then what is missing is counted as lost).
  let outputs = await committedRecords(bootstrap, "copy-out");
  await eventually(async () => {
    outputs = await committedRecords(bootstrap, "copy-out");
    const copied = keyCounts(outputs);
    return [...input.keys()].every((key) => copied.has(key));
  }, { timeoutMs, what: `the restarted instance to copy all ${inputRecords} records` }).catch(() => undefined);
  const output = keyCounts(outputs);
  let duplicates = 0;
  let lost = 0;
  for (const [key, count] of input) {
    duplicates += Math.max(0, (output.get(key) ?? 0) - count);
    lost += Math.max(0, count - (output.get(key) ?? 0));
  }
  return { inputRecords, outputs, duplicates, lost, strangers: [...output.keys()].filter((key) => !input.has(key)) };
}
