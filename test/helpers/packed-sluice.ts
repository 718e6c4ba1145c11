/**
 * Sluice as a team gets it: packed with `npm pack` from this build, installed with `npm install` from the tarball into
 * packages in temporary folders, and run through npm. Only the npm registry the machine reaches is used.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eventually } from "./eventually";
import { descendantsOf, isAlive } from "./processes";
import { REPO_ROOT } from "./sluice";

/**
 * npm's environment: the machine's PATH and HOME (its cache and configuration), nothing of this test's npm run.
 * `prefer-offline`: a package already in npm's cache is taken from it without asking the registry whether it is still
 * current, so the four installs of a run cost one registry round trip per new package instead of one per package
 * (the file took 198 s, most of it waiting on the registry). Versions are still resolved as a team's install would.
 */
export const NPM_ENV = { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_prefer_offline: "true" };

/** The repository's own version of a development dependency, so that the packages compile with what Sluice does. */
export const devVersion = (name: string): string => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", name, "package.json"), "utf8")).version;

/**
 * Packs this build into `dir` and returns the tarball's path. `--ignore-scripts`: the tests run from dist/, which the
 * `prepare` build would replace under them; the build that made them is what is packed.
 */
export function packSluice(dir: string): string {
  const packed = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: REPO_ROOT, env: NPM_ENV, encoding: "utf8" }));
  return path.join(dir, packed[0].filename);
}

export function npm(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync("npm", args, { cwd, env: { ...NPM_ENV, ...env }, encoding: "utf8", stdio: "pipe", timeout: 300_000 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}\n${stderr ?? ""}`);
  }
}

/** A fresh folder holding an empty package. */
export function emptyPackage(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sluice-${name}-`));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", private: true }, null, 2));
  return dir;
}

/** Sluice started through npm or npx (a child whose descendants run it), with its stderr read for its log. */
export interface NpmRun {
  child: ChildProcess;
  stderr(): string;
  /** `http://host:port` once Sluice listens. */
  url: Promise<string>;
  /** The embedded broker's `host:port`. */
  broker: Promise<string>;
  /** SIGTERM to npm, then waits for it and every process it started to end; resolves with npm's exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runThroughNpm(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): NpmRun {
  const child = spawn(command, args, { cwd, env: { ...NPM_ENV, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const logged = (pattern: RegExp, what: string) =>
    eventually(
      () => {
        if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}: ${stderr.slice(-3_000)}`);
        return pattern.exec(stderr)?.[1];
      },
      { timeoutMs: 120_000, intervalMs: 100, what },
    );
  const url = logged(/"msg":"HTTP server listening","address":"(http:[^"]+)"/, "Sluice to listen");
  const broker = logged(/"msg":"broker listening".*?"port":(\d+)/, "the embedded broker").then((port) => `127.0.0.1:${port}`);
  // Neither may be awaited by a test that fails first.
  url.catch(() => undefined);
  broker.catch(() => undefined);
  let started: number[] = [];
  return {
    child,
    stderr: () => stderr,
    url: url.then((found) => {
      started = descendantsOf(child.pid!);
      return found;
    }),
    broker,
    stop: async () => {
      if (started.length === 0) started = descendantsOf(child.pid!);
      child.kill("SIGTERM");
      const exit = await exited;
      try {
        await eventually(() => started.every((pid) => !isAlive(pid)), { timeoutMs: 30_000, what: `the processes ${command} started (${started.join(", ")}) to end` });
      } finally {
        for (const pid of started) if (isAlive(pid)) process.kill(pid, "SIGKILL");
      }
      return exit;
    },
  };
}
