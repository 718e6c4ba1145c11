/**
 * Every TypeScript sample of docs/*.md is a whole program: compiled together against the package (strict, no
 * skipLibCheck) and each run to its end, where it asserts what the text around it says. A sample that no longer
 * compiles or whose assertion fails names its file and line.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import fg from "fast-glob";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { markdownSamples, withCompiledSamples } from "../helpers/readme-example";
import { REPO_ROOT } from "../helpers/sluice";

const run = promisify(execFile);

test("the guide's samples compile against the package and run", async () => {
  const samples = fg.sync("docs/**/*.md", { cwd: REPO_ROOT }).sort().flatMap((file) => markdownSamples(path.join(REPO_ROOT, file)));
  assert.ok(samples.length >= 8, `${samples.length} samples found`);
  const failures = await withCompiledSamples(samples, async (dir) => {
    const failed: string[] = [];
    const waiting = samples.map(({ name }) => name);
    // Two at a time: most wait on their own disk and timers more than on a core.
    const runner = async () => {
      for (let name = waiting.shift(); name !== undefined; name = waiting.shift()) {
        await run(process.execPath, [path.join(dir, `${name}.js`)], { cwd: dir, timeout: 60_000, env: { PATH: process.env.PATH } }).catch((error: { stderr?: string; message: string }) =>
          failed.push(`${name}: ${error.stderr || error.message}`),
        );
      }
    };
    await Promise.all([runner(), runner()]);
    return failed.sort();
  });
  assert.equal(failures, []);
});

test.run();
