/**
 * kcat (a process of its own, so that it takes no time from the application under test) reading an output topic from
 * its beginning until the output is complete, and when that was: every record of the stateless topology, or for
 * wordcount every word's final count. A reader that sees no new output for STALL_MS fails.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** Generous: a Kafka Streams JVM can take most of a minute to start and join on the 2 shared cores. */
const STALL_MS = 120_000;

/** When the output is complete: `records` records, or these final counts by word. */
export type ExpectedOutput = { records: number } | { counts: ReadonlyMap<string, number> };

export class OutputReader {
  /** Resolves with the wall-clock time (ms) at which the last expected output was read. */
  readonly complete: Promise<number>;
  private readonly child: ChildProcess;

  constructor(bootstrap: string, topic: string, expected: ExpectedOutput) {
    const counting = "records" in expected;
    // One line per record: empty ones when counting, "word count" for wordcount's long counts. kcat's output to a pipe
    // is block-buffered: when counting it stops at the count (-c), flushing as it exits; wordcount's output, whose
    // length is not known, is written unbuffered (-u) so that its last counts are not held back.
    const format = counting ? ["-c", String(expected.records), "-f", "\\n"] : ["-u", "-s", "value=>q", "-f", "%k %s\\n"];
    this.child = spawn("kcat", ["-b", bootstrap, "-C", "-t", topic, "-o", "beginning", "-q", ...format], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    this.child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
    const done = counting ? recordCounter(expected.records) : finalCounts(expected.counts);
    this.complete = new Promise<number>((resolve, reject) => {
      let lastOutput = Date.now();
      const stall = setInterval(() => {
        if (Date.now() - lastOutput > STALL_MS) finish(new Error(`no new output on ${topic} for ${STALL_MS / 1000} s (${done.progress()}); kcat: ${stderr}`));
      }, 1_000);
      const finish = (outcome: number | Error) => {
        clearInterval(stall);
        this.stop();
        if (typeof outcome === "number") resolve(outcome);
        else reject(outcome);
      };
      let pending = "";
      this.child.stdout!.setEncoding("utf8").on("data", (text: string) => {
        lastOutput = Date.now();
        const lines = (pending + text).split("\n");
        pending = lines.pop()!;
        if (done.read(lines)) finish(lastOutput);
      });
      this.child.once("close", (code, signal) => finish(new Error(`kcat reading ${topic} exited (${code ?? signal}) with ${done.progress()}: ${stderr}`)));
    });
    this.complete.catch(() => undefined);
  }

  /** Kills kcat by its pid (nothing when it has exited). */
  stop(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }
}

interface Completion {
  /** Takes whole lines; answers whether the output is complete. */
  read(lines: string[]): boolean;
  progress(): string;
}

function recordCounter(records: number): Completion {
  let read = 0;
  return {
    read: (lines) => (read += lines.length) >= records,
    progress: () => `${read} of ${records} records`,
  };
}

function finalCounts(expected: ReadonlyMap<string, number>): Completion {
  const final = new Set<string>();
  let read = 0;
  return {
    read: (lines) => {
      read += lines.length;
      for (const line of lines) {
        const space = line.lastIndexOf(" ");
        const word = line.slice(0, space);
        if (Number(line.slice(space + 1)) === expected.get(word)) final.add(word);
      }
      return final.size === expected.size;
    },
    progress: () => `${final.size} of ${expected.size} words at their final count after ${read} records`,
  };
}
