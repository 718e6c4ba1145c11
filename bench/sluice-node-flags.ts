/**
 * The Node.js flags Sluice runs with: those of bin/sluice.js's first line, read from it so that a bench of the
 * runtime in its own process measures Sluice as it runs.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const SLUICE_BIN = path.resolve(__dirname, "..", "..", "bin", "sluice.js");

/** The flags after `node` on bin/sluice.js's `#!/usr/bin/env -S node …` line. */
export function sluiceNodeFlags(): string[] {
  const shebang = readFileSync(SLUICE_BIN, "utf8").split("\n", 1)[0];
  const words = shebang.split(/\s+/);
  const node = words.indexOf("node");
  if (!shebang.startsWith("#!") || node < 0) throw new Error(`${SLUICE_BIN} does not start with a #! line that runs node: ${shebang}`);
  return words.slice(node + 1).filter((word) => word.length > 0);
}

/**
 * Runs this script again with Sluice's flags when it was started without them, and exits with that run's status;
 * returns when the flags are in place.
 */
export function ensureSluiceNodeFlags(): void {
  const missing = sluiceNodeFlags().filter((flag) => !process.execArgv.includes(flag));
  if (missing.length === 0) return;
  const run = spawnSync(process.execPath, [...process.execArgv, ...missing, ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}
