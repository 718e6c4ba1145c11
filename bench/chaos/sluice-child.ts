/**
 * One `sluice` child process of a chaos run: started with fixed arguments (so a restart comes back on the same
 * port and data), its log appended to a file, killed with SIGKILL or stopped with SIGTERM.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");
const SLUICE_BIN = path.join(REPO_ROOT, "bin", "sluice.js");

export class SluiceChild {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** Starts of this child, the first included. */
  starts = 0;
  /** When the child last became ready (its port answered), ms since the epoch; 0 before its first start. */
  readyAt = 0;
  /** A start is under way: the process runs but does not serve yet. */
  private starting = false;

  constructor(
    readonly name: string,
    private readonly args: string[],
    private readonly logFile: string,
    /** Tells whether the child serves (its port answers). */
    private readonly ready: () => Promise<boolean>,
  ) {}

  get pid(): number | undefined {
    return this.alive ? this.child?.pid : undefined;
  }

  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Running and done starting: a fault injected now hits a serving instance, not one still coming back. */
  get serving(): boolean {
    return this.alive && !this.starting;
  }

  /** Resolves once the child is ready; rejects if it exits first or `timeoutMs` passes. */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.alive) throw new Error(`${this.name} is already running`);
    this.starting = true;
    try {
      await this.spawnUntilReady(timeoutMs);
    } finally {
      this.starting = false;
    }
  }

  private async spawnUntilReady(timeoutMs: number): Promise<void> {
    this.starts++;
    const log = fs.openSync(this.logFile, "a");
    fs.writeSync(log, `{"chaos":"start ${this.name} #${this.starts}","at":${Date.now()}}\n`);
    const child = spawn(process.execPath, [SLUICE_BIN, ...this.args], { cwd: REPO_ROOT, stdio: ["ignore", "ignore", log], env: { PATH: process.env.PATH } });
    fs.closeSync(log);
    this.child = child;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    const deadline = Date.now() + timeoutMs;
    while (!(await this.ready())) {
      if (!this.alive) throw new Error(`${this.name} exited (${child.exitCode ?? child.signalCode}) before it was ready (log: ${this.logFile})`);
      if (Date.now() > deadline) throw new Error(`${this.name} was not ready within ${timeoutMs} ms (log: ${this.logFile})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    this.readyAt = Date.now();
  }

  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    if (this.alive) this.child!.kill(signal);
    await this.exited;
  }

  /** Resident set size in bytes, from /proc; undefined when the child is not running. */
  rssBytes(): number | undefined {
    const pid = this.pid;
    if (pid === undefined) return undefined;
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      return kib === undefined ? undefined : Number(kib) * 1024;
    } catch {
      return undefined;
    }
  }
}
