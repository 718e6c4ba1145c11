/**
 * Sluice run by npm under a supervisor that signals npm itself (a container runtime, a process manager): SIGTERM or
 * SIGINT to npm stops Sluice cleanly, and no process npm started is left holding its ports. npm runs it as this
 * repository's `serve` script (what `npm start` execs once it has built: building here would replace the compiled
 * tests while they run), or as the `start` script of a package that depends on Sluice. With `exec` in the script npm
 * signals Sluice itself; without it npm signals the shell between them, which SIGTERM kills and SIGINT does not (the
 * shell waits for Sluice): Sluice then notices it has lost its parent and stops as on SIGTERM, and npm ends by the
 * signal its shell died of.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../helpers/eventually";
import { descendantsOf, isAlive } from "../helpers/processes";
import { REPO_ROOT } from "../helpers/sluice";

async function refused(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    () => false,
    () => true,
  );
}

/** A package depending on Sluice as `npm install` would lay it out (node_modules/sluice and its bin link), started by `start`. */
function dependentPackage(start: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-dependent-"));
  fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  fs.symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "sluice"));
  fs.symlinkSync(path.join("..", "sluice", "bin", "sluice.js"), path.join(dir, "node_modules", ".bin", "sluice"));
  const manifest = { name: "dependent", version: "1.0.0", private: true, dependencies: { sluice: "*" }, scripts: { start } };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest));
  return dir;
}

interface Case {
  name: string;
  cwd(): string;
  args: string[];
  signals: NodeJS.Signals[];
  /** How npm ends: exit 0, or by the signal that killed its shell. */
  npmEnds: { code: number | null; signal: NodeJS.Signals | null } | "by the signal";
}

const cases: Case[] = [
  { name: "this repository's npm run serve", cwd: () => REPO_ROOT, args: ["run", "serve", "--silent", "--"], signals: ["SIGTERM", "SIGINT"], npmEnds: { code: 0, signal: null } },
  { name: '"start": "exec sluice start"', cwd: () => dependentPackage("exec sluice start"), args: ["start", "--silent", "--"], signals: ["SIGTERM", "SIGINT"], npmEnds: { code: 0, signal: null } },
  { name: '"start": "sluice start"', cwd: () => dependentPackage("sluice start"), args: ["start", "--silent", "--"], signals: ["SIGTERM"], npmEnds: "by the signal" },
];

for (const script of cases) {
  for (const signal of script.signals) {
    test(`${signal} to npm (${script.name}) stops Sluice cleanly and leaves no process behind`, async () => {
      const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-npm-"));
      const cwd = script.cwd();
      const npm = spawn("npm", [...script.args, "--server.port=0", "--broker.port=0", "--broker.storage=memory", `--streams.state.dir=${stateDir}`], {
        cwd,
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      npm.stderr!.on("data", (chunk) => (stderr += chunk));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => npm.once("exit", (code, signal) => resolve({ code, signal })));
      let started: number[] = [];
      try {
        const url = await eventually(() => /"msg":"HTTP server listening","address":"(http:[^"]+)"/.exec(stderr)?.[1], { timeoutMs: 30_000, what: "Sluice to listen under npm" });
        const brokerPort = await eventually(() => /"msg":"broker listening".*?"port":(\d+)/.exec(stderr)?.[1], { what: "the embedded broker" });
        assert.is((await fetch(`${url}/health`)).status, 200);
        started = descendantsOf(npm.pid!);
        assert.ok(started.length > 0, "npm started Sluice");
        npm.kill(signal);
        assert.equal(await exited, script.npmEnds === "by the signal" ? { code: null, signal } : script.npmEnds, stderr.slice(-2_000));
        await eventually(() => started.every((pid) => !isAlive(pid)), { timeoutMs: 15_000, what: `the processes npm started (${started.join(", ")}) to exit` });
        assert.ok(stderr.includes('"msg":"Sluice stopped"'), "Sluice shut down cleanly");
        assert.ok(await refused(url), "the HTTP port is free");
        assert.ok(await refused(`http://127.0.0.1:${brokerPort}`), "the broker port is free");
      } finally {
        npm.kill("SIGKILL");
        for (const pid of started) if (isAlive(pid)) process.kill(pid, "SIGKILL");
        fs.rmSync(stateDir, { recursive: true, force: true });
        if (cwd !== REPO_ROOT) fs.rmSync(cwd, { recursive: true, force: true });
      }
    });
  }
}

test.run();
