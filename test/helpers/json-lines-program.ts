/**
 * A peer program of the tests in a child process (a Java client from the reference test bed, a Python client): it
 * takes commands on stdin and answers each with one JSON line on stdout. Stopped by its pid, also when a test fails.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { referenceClasspath } from "./reference-java";

export type JsonLine = Record<string, unknown>;

const REPOSITORY = join(__dirname, "..", "..", "..");

export class JsonLinesProgram {
  private readonly lines: JsonLine[] = [];
  private readonly waiting: ((line: JsonLine) => void)[] = [];
  private stderr = "";
  private readonly exit: Promise<number | null>;

  private constructor(private readonly child: ChildProcess, private readonly name: string) {
    let pending = "";
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      pending += text;
      for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        if (!line.startsWith("{")) continue;
        const parsed = JSON.parse(line) as JsonLine;
        const waiter = this.waiting.shift();
        if (waiter) waiter(parsed);
        else this.lines.push(parsed);
      }
    });
    child.stderr!.setEncoding("utf8").on("data", (text: string) => (this.stderr = (this.stderr + text).slice(-20_000)));
    this.exit = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  static start(command: string, args: string[], name: string): JsonLinesProgram {
    return new JsonLinesProgram(spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] }), name);
  }

  /** Sends one command and resolves with the line that answers it. */
  ask(command: string, timeoutMs = 60_000): Promise<JsonLine> {
    this.child.stdin!.write(`${command}\n`);
    return this.next(timeoutMs, command);
  }

  /** The next line the program prints. */
  next(timeoutMs = 60_000, what = "its next line"): Promise<JsonLine> {
    const ready = this.lines.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} did not answer ${what} within ${timeoutMs} ms; its stderr:\n${this.stderr}`)), timeoutMs);
      const exited = this.exit.then((code) => reject(new Error(`${this.name} exited (${code}) before answering ${what}; its stderr:\n${this.stderr}`)));
      this.waiting.push((line) => {
        clearTimeout(timer);
        void exited.catch(() => undefined);
        resolve(line);
      });
    });
  }

  /** Kills the program by its pid, and waits for it to be gone. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    await this.exit;
  }
}

/**
 * The Java command line of a class of the reference test bed (reference/setup resolves the jars and compiles
 * reference/src); throws naming what to run when it is missing.
 */
export function referenceJava(mainClass: string, args: string[]): { command: string; args: string[] } {
  return { command: "java", args: ["-cp", referenceClasspath(), mainClass, ...args] };
}

/** Runs a Java class of the reference test bed to its end, without blocking this process (a broker may live in it). */
export function runReferenceJava(mainClass: string, args: string[], timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const java = referenceJava(mainClass, args);
  return new Promise((resolve) => {
    execFile(java.command, java.args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/**
 * A Python with confluent-kafka: $SLUICE_PYTHON, or the repository's .venv (.ci/run makes it). Throws saying how to
 * make one when there is none: the tests that need it fail, they never skip.
 */
export function pythonWithConfluentKafka(): string {
  const python = process.env.SLUICE_PYTHON ?? join(REPOSITORY, ".venv", "bin", "python");
  const probe = spawnSync(python, ["-c", "import confluent_kafka"], { encoding: "utf8" });
  if (probe.status !== 0) {
    throw new Error(
      `no Python with confluent-kafka at ${python} (${probe.error?.message ?? probe.stderr.trim()}): ` +
        "run `python3 -m venv .venv && .venv/bin/pip install confluent-kafka fastavro requests attrs cachetools httpx authlib jsonschema protobuf googleapis-common-protos` in the repository (.ci/run does, pinned), or set SLUICE_PYTHON",
    );
  }
  return python;
}

/** The test fixtures' own files, by path under test/fixtures. */
export function fixturePath(...parts: string[]): string {
  return join(REPOSITORY, "test", "fixtures", ...parts);
}
