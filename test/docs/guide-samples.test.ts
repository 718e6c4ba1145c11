/**
 * Every TypeScript sample of README.md and docs/*.md compiles against the package (strict, no skipLibCheck), all of
 * them in one compiler run: it costs seconds of a core each time, for checking Sluice's declarations. The README's
 * plugin example is a module; every other sample is a whole program, run to its end, where it asserts what the text
 * around it says (the README's embedding example prints its count, checked here). A sample that no longer compiles or
 * whose assertion fails names its file and line.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import fg from "fast-glob";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { compileSamples, markdownSamples, readmeExample, type Sample } from "../helpers/readme-example";
import { REPO_ROOT } from "../helpers/sluice";

const run = promisify(execFile);
const test = suite<{ dir: string; plugin: Sample; embedding: Sample; guide: Sample[] }>("the documentation's samples");

/** The README's sample under `heading`. */
function readmeSample(readme: readonly Sample[], heading: string): Sample {
  const source = readmeExample(heading);
  const sample = readme.find((candidate) => candidate.source === source);
  if (sample === undefined) throw new Error(`README has no example under '${heading}'`);
  return sample;
}

test.before((context) => {
  const readme = markdownSamples(path.join(REPO_ROOT, "README.md"));
  context.plugin = readmeSample(readme, "### Writing a plugin");
  context.embedding = readmeSample(readme, "## Use Sluice from your own program");
  assert.is(readme.length, 2, "the README's samples are its plugin and embedding examples");
  context.guide = fg.sync("docs/**/*.md", { cwd: REPO_ROOT }).sort().flatMap((file) => markdownSamples(path.join(REPO_ROOT, file)));
  context.dir = compileSamples([...readme, ...context.guide]);
});
test.after(({ dir }) => {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
});

test("the README's plugin example compiles against 'sluice' alone", ({ dir, plugin }) => {
  assert.ok(fs.existsSync(path.join(dir, `${plugin.name}.js`)));
});

test("the guide's samples and the README's embedding example run: each to its end, the embedding example's count right", async ({ dir, embedding, guide }) => {
  assert.ok(guide.length >= 8, `${guide.length} samples found`);
  const failed: string[] = [];
  const printed = new Map<string, string>();
  const waiting = [embedding, ...guide].map(({ name }) => name);
  // Two at a time: most wait on their own disk and timers more than on a core.
  const runner = async () => {
    for (let name = waiting.shift(); name !== undefined; name = waiting.shift()) {
      await run(process.execPath, [path.join(dir, `${name}.js`)], { cwd: dir, timeout: 60_000, env: { PATH: process.env.PATH } }).then(
        ({ stdout }) => void printed.set(name, stdout),
        (error: { stderr?: string; message: string }) => failed.push(`${name}: ${error.stderr || error.message}`),
      );
    }
  };
  await Promise.all([runner(), runner()]);
  assert.equal(failed.sort(), []);
  assert.is(printed.get(embedding.name)?.trim(), "ada was greeted 2 times");
});

test.run();
