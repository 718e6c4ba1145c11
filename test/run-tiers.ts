/**
 * Runs the compiled test files of one or more tiers in parallel worker processes, and prints each file's uvu output
 * whole (never interleaved), each tier's time, and one uvu-style summary over the whole run.
 *
 * Tiers, by file name under dist/test:
 * - reference: `reference/**` — needs a JDK and the jars of `reference/setup` (Apache Kafka, Kafka Streams);
 * - slow: `*.slow.test.js` — process-level suites (chaos, browser, packaging, several processes);
 * - default: every other `*.test.js`, quick enough to run on every change.
 *
 * Usage: node dist/test/run-tiers.js [default|slow|reference|all ...] [--jobs N] [--filter REGEX] [--seed]
 * Workers: the default tier has two a core (at most four) unless told: its files spend most of their time waiting on
 * timers, sockets and child processes (the whole tier: ~230 s of CPU in ~400 s of file time; the broker's files: about a
 * quarter of a core each), so one a core left the cores partly idle. The slow tier's process-level suites keep one a core
 * (at most four), the reference tier one a core (at most two): its files wait mostly on JVMs starting and on Kafka's
 * group and broker timers, and its wall time went from 1104 s on one worker to 684 s on two (machine shared, load 10-19).
 * A worker runs one file at a time and asks for the next, so long files do not hold short ones back; a file that
 * crashes its worker counts as failed and a new worker takes the rest. Durations of the last run order the files,
 * longest first (kept in node_modules/.cache, never committed); a fresh clone orders them by test/file-durations.json,
 * which `--seed` rewrites from a whole default-tier run (run it on an idle machine).
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

type Tier = "default" | "slow" | "reference";
const TIERS: Tier[] = ["default", "slow", "reference"];

const TEST_ROOT = __dirname;
const DURATIONS_FILE = path.join(TEST_ROOT, "..", "..", "node_modules", ".cache", "sluice-test-durations.json");
/**
 * Seconds the default tier's longer files took in a whole run, committed: a fresh clone has no durations of its own,
 * and in name order its long files would start last and run on alone (141 s for the default tier instead of 114 s).
 * The slow and reference tiers keep name order there, as their files' load on each other was measured in it.
 */
const SEED_DURATIONS_FILE = path.join(TEST_ROOT, "..", "..", "test", "file-durations.json");

export function tierOf(file: string): Tier {
  if (file.startsWith("reference/")) return "reference";
  if (file.endsWith(".slow.test.js")) return "slow";
  return "default";
}

interface FileResult {
  file: string;
  output: string;
  total: number;
  passed: number;
  skipped: number;
  /** Whether the file ended without its summary (a crash, or an exit before its tests finished). */
  crashed: boolean;
  ms: number;
  /** CPU the file used, its exited children's too; undefined where /proc cannot tell. */
  cpuMs?: number;
}

/** Reads uvu's summary lines out of a file's output. */
function summaryOf(output: string): { total: number; passed: number; skipped: number } | undefined {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const field = (name: string) => plain.match(new RegExp(`^\\s*${name}:\\s*(\\d+)`, "m"))?.[1];
  const total = field("Total");
  const passed = field("Passed");
  if (total === undefined || passed === undefined) return undefined;
  return { total: Number(total), passed: Number(passed), skipped: Number(field("Skipped") ?? 0) };
}

function listFiles(tiers: Tier[], filter: RegExp | undefined): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "fixtures" && entry.name !== "node_modules") walk(full);
      } else if (entry.name.endsWith(".test.js")) {
        const relative = path.relative(TEST_ROOT, full).split(path.sep).join("/");
        if (tiers.includes(tierOf(relative)) && (filter === undefined || filter.test(relative))) files.push(relative);
      }
    }
  };
  walk(TEST_ROOT);
  return files.sort();
}

function readJson(file: string): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

/** This checkout's durations (ms) of the files it ran. */
const readDurations = (): Record<string, number> => readJson(DURATIONS_FILE);

/** The order to start files in: the longest first, by this checkout's durations, else the committed seed's. */
function expectedDurations(): Record<string, number> {
  const seed = Object.fromEntries(Object.entries(readJson(SEED_DURATIONS_FILE)).map(([file, seconds]) => [file, seconds * 1000]));
  return { ...seed, ...readDurations() };
}

/** Files shorter than this start after the seed's, in name order: their order hardly moves the tier's end. */
const SEED_MIN_SECONDS = 3;

/** Rewrites the seed from a run's default-tier files. */
function writeSeed(results: FileResult[]): void {
  const seconds = results
    .filter((result) => tierOf(result.file) === "default" && result.ms >= SEED_MIN_SECONDS * 1000)
    .sort((a, b) => a.file.localeCompare(b.file))
    .map((result) => [result.file, Math.round(result.ms / 1000)]);
  fs.writeFileSync(SEED_DURATIONS_FILE, `${JSON.stringify(Object.fromEntries(seconds), null, 1)}\n`);
}

function writeDurations(results: FileResult[]): void {
  const durations = readDurations();
  for (const result of results) durations[result.file] = result.ms;
  fs.mkdirSync(path.dirname(DURATIONS_FILE), { recursive: true });
  fs.writeFileSync(DURATIONS_FILE, JSON.stringify(durations, null, 1));
}

/** Runs `files` on `jobs` workers; resolves when every file has a result. */
function runFiles(files: string[], jobs: number, onResult: (result: FileResult) => void): Promise<void> {
  const queue = [...files];
  return new Promise((resolve) => {
    let running = 0;
    const startWorker = () => {
      if (queue.length === 0) {
        if (running === 0) resolve();
        return;
      }
      running++;
      const worker: ChildProcess = fork(__filename, ["--worker"], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
      let current: { file: string; started: number } | undefined;
      // Only what a crashing worker flushes on its way out arrives through the pipes.
      let crashOutput = "";
      worker.stdout!.on("data", (chunk: Buffer) => void (crashOutput += chunk.toString()));
      worker.stderr!.on("data", (chunk: Buffer) => void (crashOutput += chunk.toString()));
      const finish = (output: string, crashed: boolean, cpuMs?: number) => {
        if (current === undefined) return;
        const summary = summaryOf(output);
        onResult({
          file: current.file,
          output,
          total: summary?.total ?? 0,
          passed: summary?.passed ?? 0,
          skipped: summary?.skipped ?? 0,
          crashed: crashed || summary === undefined,
          ms: Date.now() - current.started,
          cpuMs,
        });
        current = undefined;
      };
      const next = () => {
        const file = queue.shift();
        if (file === undefined) {
          worker.send({ type: "exit" });
          return;
        }
        current = { file, started: Date.now() };
        crashOutput = "";
        worker.send({ type: "run", file: path.join(TEST_ROOT, file) });
      };
      worker.on("message", (message: { type: string; output: string; cpuMs?: number }) => {
        if (message.type !== "done") return;
        finish(message.output, false, message.cpuMs);
        next();
      });
      // "close" comes after the pipes have delivered everything.
      worker.on("close", () => {
        finish(crashOutput, true);
        running--;
        startWorker();
      });
      next();
    };
    for (let i = 0; i < Math.max(1, Math.min(jobs, files.length)); i++) startWorker();
    if (files.length === 0) resolve();
  });
}

/**
 * Milliseconds of CPU this process and its children that have exited have used (Linux's /proc/self/stat: utime,
 * stime, cutime and cstime, in ticks of 10 ms); undefined elsewhere. A test file's Sluice processes, compilers and
 * peers are its children, so a file whose wall time is far above its CPU spends it waiting on timers.
 */
function cpuMsSoFar(): number | undefined {
  try {
    const fields = fs.readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ");
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks) * 10, 0);
  } catch {
    return undefined;
  }
}

/**
 * The worker: runs the files the parent sends, one at a time, each through uvu's own runner. A file's output is
 * held and sent with its "done", so files never interleave; a worker that dies flushes what it holds on its way out.
 */
function runWorker(): void {
  (globalThis as { UVU_DEFER?: number }).UVU_DEFER = 1;
  const uvu = require("uvu") as { exec(bail?: boolean): Promise<void> };
  const queue = ((globalThis as unknown as { UVU_QUEUE: unknown[][] }).UVU_QUEUE ??= []);
  let held = "";
  const hold = (chunk: string | Uint8Array) => {
    held += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
    return true;
  };
  process.stdout.write = hold as typeof process.stdout.write;
  process.stderr.write = hold as typeof process.stderr.write;
  process.on("exit", () => {
    if (held !== "") fs.writeSync(1, held);
  });
  // Node would end the worker with the reason on a stderr nobody reads: the file's output says it instead.
  process.on("unhandledRejection", (reason) => {
    hold(`\n  an unhandled rejection ended this test file: ${reason instanceof Error ? reason.stack : String(reason)}\n`);
    process.exit(1);
  });
  process.on("message", async (message: { type: string; file?: string }) => {
    // Exits even when a test file left a handle open (a server, a timer), as a whole-suite run would at its end.
    if (message.type === "exit") process.exit(0);
    held = "";
    queue.length = 0;
    queue.push([path.relative(TEST_ROOT, message.file!)]);
    (globalThis as { UVU_INDEX?: number }).UVU_INDEX = 0;
    const cpuBefore = cpuMsSoFar();
    require(message.file!);
    await uvu.exec();
    const cpuAfter = cpuMsSoFar();
    const output = held;
    held = "";
    process.send!({ type: "done", output, cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore });
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const cpuOf = (results: FileResult[]) => (results.every((result) => result.cpuMs !== undefined) ? ` (CPU ${seconds(results.reduce((sum, result) => sum + result.cpuMs!, 0))})` : "");

/**
 * The `count` files that took longest, with their times and CPU: where a slow run's time went, read from CI's output.
 * A file far above its CPU waits on timers; a tier whose files' CPU nears its time on all the cores is bound by them.
 */
function longestFiles(results: FileResult[], count: number): string {
  return [...results]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((result) => `${result.file} ${seconds(result.ms)}${cpuOf([result])}`)
    .join(", ");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const givenJobs = option("--jobs") ?? process.env.SLUICE_TEST_JOBS;
  const cores = os.availableParallelism();
  const jobsOf = (tier: Tier) => Number(givenJobs ?? Math.min(tier === "default" ? 2 * cores : cores, tier === "reference" ? 2 : 4));
  const filterText = option("--filter");
  const seedAt = args.indexOf("--seed");
  if (seedAt >= 0) args.splice(seedAt, 1);
  if (seedAt >= 0 && filterText !== undefined) throw new Error("--seed needs the whole default tier: no --filter");
  const asked = args.length === 0 ? ["default"] : args;
  const unknown = asked.filter((tier) => tier !== "all" && !TIERS.includes(tier as Tier));
  if (unknown.length > 0) throw new Error(`unknown tier ${unknown.join(", ")}: the tiers are ${TIERS.join(", ")} and all`);
  const tiers = asked.includes("all") ? TIERS : TIERS.filter((tier) => asked.includes(tier));
  const durations = expectedDurations();
  const totals = { total: 0, passed: 0, skipped: 0 };
  const failedFiles: string[] = [];
  const tierTimes: string[] = [];
  const results: FileResult[] = [];
  const started = Date.now();
  for (const tier of tiers) {
    const files = listFiles([tier], filterText === undefined ? undefined : new RegExp(filterText));
    files.sort((a, b) => (durations[b] ?? 0) - (durations[a] ?? 0));
    const tierStarted = Date.now();
    const tierResults: FileResult[] = [];
    await runFiles(files, jobsOf(tier), (result) => {
      results.push(result);
      tierResults.push(result);
      process.stdout.write(`${result.crashed ? `${result.file}\n` : ""}${result.output.replace(/\n\s*Total:[\s\S]*$/, "")}\n`);
      totals.total += result.total + (result.crashed ? 1 : 0);
      totals.passed += result.passed;
      totals.skipped += result.skipped;
      if (result.crashed || result.passed + result.skipped < result.total) failedFiles.push(result.crashed ? `${result.file} (ended before its tests finished)` : result.file);
    });
    tierTimes.push(`${tier} tier: ${files.length} files in ${seconds(Date.now() - tierStarted)}${cpuOf(tierResults)}${tierResults.length > 0 ? `; longest: ${longestFiles(tierResults, 3)}` : ""}`);
  }
  writeDurations(results);
  if (seedAt >= 0 && tiers.includes("default")) writeSeed(results);
  const failed = totals.total - totals.passed - totals.skipped;
  process.stdout.write(`\n${tierTimes.map((line) => `  ${line}`).join("\n")}\n`);
  if (failedFiles.length > 0) process.stdout.write(`\n  Failed files:\n${failedFiles.map((file) => `    ${file}`).join("\n")}\n`);
  process.stdout.write(`\n  Total:     ${totals.total}\n  Passed:    ${totals.passed}\n  Skipped:   ${totals.skipped}\n  Duration:  ${((Date.now() - started) / 1000).toFixed(2)}s\n\n`);
  process.exitCode = failed > 0 || failedFiles.length > 0 ? 1 : 0;
}

if (process.argv.includes("--worker")) runWorker();
else if (require.main === module) main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
