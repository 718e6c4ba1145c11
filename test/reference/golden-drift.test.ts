/**
 * The reference tier: re-records every golden of reference/scenarios with Kafka Streams (reference/record-goldens,
 * into a temporary directory) and fails when any differs from the committed one. Needs the JDK and the jars that
 * `reference/setup` resolves; a missing one is a failure, never a skip.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { REPO_ROOT } from "../helpers/sluice";

const SCENARIOS = path.join(REPO_ROOT, "reference", "scenarios");
const RECORD = path.join(REPO_ROOT, "reference", "record-goldens");
/** Compiling and running a hundred scenarios in one JVM takes about a minute on this machine. */
const DEADLINE_MS = 10 * 60_000;

const test = suite("golden files: Kafka Streams 4.x re-recorded");

function record(outDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(RECORD, ["--out", outDir], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const deadline = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`reference/record-goldens took longer than ${DEADLINE_MS} ms:\n${output}`));
    }, DEADLINE_MS);
    child.once("error", (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(deadline);
      resolve({ code, output });
    });
  });
}

test("every committed golden is what Kafka Streams records today", async () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-goldens-"));
  try {
    const { code, output } = await record(outDir);
    assert.is(code, 0, `reference/record-goldens failed:\n${output}`);
    const scenarios = fs.readdirSync(SCENARIOS).filter((name) => fs.existsSync(path.join(SCENARIOS, name, "script.json")));
    const drifted = scenarios.filter((name) => {
      const committed = fs.readFileSync(path.join(SCENARIOS, name, "golden.json"), "utf8");
      return fs.readFileSync(path.join(outDir, name, "golden.json"), "utf8") !== committed;
    });
    assert.ok(scenarios.length >= 60, `only ${scenarios.length} scenarios`);
    assert.equal(drifted, [], `goldens that drifted from Kafka Streams (re-record with reference/record-goldens, then read the diff): ${drifted.join(", ")}`);
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
});

test.run();
