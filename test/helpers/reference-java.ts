/**
 * Java programs of the reference test bed (`reference/`) as child processes: Kafka's clients, command-line tools
 * and Kafka Streams, on the classpath that `reference/setup` wrote. Every process a group starts is stopped by its
 * pid when the group is stopped, also when a test fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { eventually } from "./eventually";
import { REPO_ROOT } from "./sluice";

export const REFERENCE_DIR = path.join(REPO_ROOT, "reference");

/** The package of the bed's own programs (reference/src/main/java/dev/sluice/reference). */
export const REFERENCE_PACKAGE = "dev.sluice.reference";

/** The main classes behind Kafka 4.4's scripts (kafka-topics.sh and the others), which run them with their arguments. */
export const KAFKA_TOOLS = {
  topics: "org.apache.kafka.tools.TopicCommand",
  consoleProducer: "org.apache.kafka.tools.ConsoleProducer",
  consoleConsumer: "org.apache.kafka.tools.consumer.ConsoleConsumer",
  consumerGroups: "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
  acls: "org.apache.kafka.tools.AclCommand",
} as const;

let classpath: string | undefined;

/** The bed's compiled classes, then every jar; a clear failure when `reference/setup` has not run. */
export function referenceClasspath(): string {
  if (classpath !== undefined) return classpath;
  const listing = path.join(REFERENCE_DIR, "target", "classpath.txt");
  const classes = path.join(REFERENCE_DIR, "target", "classes");
  if (!fs.existsSync(listing) || !fs.existsSync(classes)) {
    throw new Error(`the reference bed is not set up (no ${path.relative(REPO_ROOT, listing)} or target/classes): run reference/setup`);
  }
  classpath = [classes, fs.readFileSync(listing, "utf8").trim()].join(path.delimiter);
  return classpath;
}

/** Small heaps and a quick start: several JVMs share this machine's two cores with the broker under test. */
const JVM_FLAGS = ["-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true"];

export interface JavaExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface JavaProcess {
  readonly child: ChildProcess;
  readonly mainClass: string;
  stdout(): string;
  stderr(): string;
  /** The JSON objects printed on stdout so far, one a line (lines that are not JSON objects are left out). */
  lines(): Record<string, unknown>[];
  /** Writes one line to the program's stdin. */
  send(line: string): void;
  endInput(): void;
  readonly exited: Promise<JavaExit>;
  /** The first line from `from` on that satisfies `accept`; fails if the program exits first. */
  waitForLine(accept: (line: Record<string, unknown>) => boolean, what: string, options?: { from?: number; timeoutMs?: number }): Promise<Record<string, unknown>>;
}

function launch(mainClass: string, args: readonly string[], options: { cwd?: string; jvmFlags?: readonly string[] }): JavaProcess {
  const child = spawn("java", [...JVM_FLAGS, ...(options.jvmFlags ?? []), "-cp", referenceClasspath(), mainClass, ...args], {
    cwd: options.cwd ?? REFERENCE_DIR,
    env: { PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME, HOME: process.env.HOME },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  // A program that has exited no longer reads its input: writing to it is not this test's failure.
  child.stdin!.on("error", () => undefined);
  const exited = new Promise<JavaExit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const lines = () =>
    stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const name = mainClass.slice(mainClass.lastIndexOf(".") + 1);
  return {
    child,
    mainClass,
    stdout: () => stdout,
    stderr: () => stderr,
    lines,
    send: (line) => void child.stdin!.write(`${line}\n`),
    endInput: () => void child.stdin!.end(),
    exited,
    waitForLine: (accept, what, { from = 0, timeoutMs = 60_000 } = {}) =>
      eventually(
        () => {
          const found = lines().slice(from).find(accept);
          if (found) return found;
          if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) first:\n${stderr.slice(-4000)}`);
          return undefined;
        },
        { timeoutMs, intervalMs: 50, what: `${name}: ${what}` },
      ),
  };
}

/** A JVM's exit code after SIGTERM, once its shutdown hooks have run (128 + 15). */
export const SIGTERM_EXIT = 143;

/** Stops a program by its pid: SIGTERM (it shuts down cleanly), then SIGKILL if it is still there after `graceMs`. */
export async function stopJava(program: JavaProcess, graceMs = 20_000): Promise<JavaExit> {
  const { child } = program;
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    try {
      return await program.exited;
    } finally {
      clearTimeout(timer);
    }
  }
  return program.exited;
}

/** The Java programs of one test: each is stopped by stopAll, which the test's after hook calls. */
export class JavaProcesses {
  private readonly started: JavaProcess[] = [];

  start(mainClass: string, args: readonly string[], options: { cwd?: string; jvmFlags?: readonly string[] } = {}): JavaProcess {
    const program = launch(mainClass, args, options);
    this.started.push(program);
    return program;
  }

  /** Runs a program to its end with `input` on stdin; killed, and failed, when it takes longer than `timeoutMs`. */
  async run(mainClass: string, args: readonly string[], options: { input?: string; timeoutMs?: number; cwd?: string; jvmFlags?: readonly string[] } = {}): Promise<JavaExit & { stdout: string; stderr: string }> {
    const program = this.start(mainClass, args, options);
    program.child.stdin!.end(options.input ?? "");
    const timeoutMs = options.timeoutMs ?? 90_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
    const outcome = await Promise.race([program.exited, timedOut]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      await stopJava(program, 2_000);
      throw new Error(`${mainClass} ${args.join(" ")} did not finish in ${timeoutMs} ms:\n${program.stderr().slice(-4000)}`);
    }
    return { ...outcome, stdout: program.stdout(), stderr: program.stderr() };
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.started.splice(0).map((program) => stopJava(program)));
  }
}
