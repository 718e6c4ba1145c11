/**
 * Sluice run by npm, as `npm start` runs it, under a supervisor that signals npm itself (a container runtime, a
 * process manager): SIGTERM or SIGINT to npm stops Sluice cleanly, and no Sluice process is left holding its ports.
 * The test runs the `serve` script (what `npm start` execs once it has built): building here would replace the
 * compiled tests while they run.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../helpers/eventually";
import { REPO_ROOT } from "../helpers/sluice";

async function refused(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    () => false,
    () => true,
  );
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} to npm stops Sluice with exit 0 and leaves no process behind`, async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-npm-"));
    const npm = spawn("npm", ["run", "serve", "--silent", "--", "--server.port=0", "--broker.port=0", "--broker.storage=memory", `--streams.state.dir=${stateDir}`], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    npm.stderr!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    try {
      const url = await eventually(() => /"msg":"HTTP server listening","address":"(http:[^"]+)"/.exec(stderr)?.[1], { timeoutMs: 30_000, what: "Sluice to listen under npm" });
      const brokerPort = await eventually(() => /"msg":"broker listening".*?"port":(\d+)/.exec(stderr)?.[1], { what: "the embedded broker" });
      assert.is((await fetch(`${url}/health`)).status, 200);
      npm.kill(signal);
      assert.is(await exited, 0, stderr.slice(-2_000));
      assert.ok(stderr.includes('"msg":"Sluice stopped"'), "Sluice shut down cleanly");
      assert.ok(await refused(url), "the HTTP port is free");
      assert.ok(await refused(`http://127.0.0.1:${brokerPort}`), "the broker port is free");
    } finally {
      npm.kill("SIGKILL");
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });
}

test.run();
