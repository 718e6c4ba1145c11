/** Running the `sluice` command as a child process, the way a user does, and reading its structured log. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { eventually } from "./eventually";
import { REPO_ROOT } from "./sluice";

export const SLUICE_BIN = path.join(REPO_ROOT, "bin", "sluice.js");

export interface SluiceProcess {
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  stdout(): string;
  /** Parsed JSON log lines so far. */
  logs(): Record<string, unknown>[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits for the "HTTP server listening" line and returns the base URL. */
  url(timeoutMs?: number): Promise<string>;
}

/** The port a `sluice broker` child listens on, from its "broker listening" line. */
export function brokerPort(broker: SluiceProcess): Promise<number> {
  return eventually(
    () => {
      if (broker.child.exitCode !== null) throw new Error(`the broker exited: ${broker.stderr()}`);
      return broker.logs().find((line) => line.msg === "broker listening")?.port as number | undefined;
    },
    { timeoutMs: 15_000, what: "the broker to listen" },
  );
}

/**
 * `start` runs get an ephemeral in-memory embedded broker unless the arguments say otherwise. `openFiles` lowers the
 * process's limit on open files (through the shell's ulimit).
 */
export function runSluice(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; openFiles?: number } = {}): SluiceProcess {
  const brokerDefaults = args[0] === "start" ? ["--broker.port=0", "--broker.storage=memory"].filter((flag) => !args.some((arg) => arg.startsWith(flag.split("=")[0]))) : [];
  const command = [process.execPath, SLUICE_BIN, ...args, ...brokerDefaults];
  const limited = options.openFiles === undefined ? command : ["/bin/sh", "-c", `ulimit -n ${options.openFiles} && exec "$@"`, "sh", ...command];
  const child = spawn(limited[0], limited.slice(1), {
    cwd: options.cwd ?? REPO_ROOT,
    env: { PATH: process.env.PATH, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const logs = () =>
    stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    logs,
    exited,
    url: (timeoutMs = 15_000) =>
      eventually(
        () => {
          if (child.exitCode !== null) throw new Error(`sluice exited with ${child.exitCode}: ${stderr}`);
          const line = logs().find((entry) => entry.msg === "HTTP server listening");
          return line ? String(line.address) : undefined;
        },
        { timeoutMs, what: "sluice to listen" },
      ),
  };
}
