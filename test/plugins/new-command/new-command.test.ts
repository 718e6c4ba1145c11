/**
 * `sluice new` writes a package that compiles strictly against Sluice (no skipLibCheck), whose own test passes, and
 * that `sluice start` runs from its folder: its topology counts, its REST route answers from the store. Here the
 * package's dependencies are linked from this repository instead of installed; the slow tier installs them from a
 * packed Sluice (new-package.slow.test.ts).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http, REPO_ROOT } from "../../helpers/sluice";
import { brokerPort, runSluice, SLUICE_BIN } from "../../helpers/sluice-process";

const test = suite<{ root: string }>("sluice new");

test.before.each((context) => {
  context.root = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-new-"));
});
test.after.each(({ root }) => fs.rmSync(root, { recursive: true, force: true }));

const sluiceNew = (root: string, ...args: string[]) => execFileSync(process.execPath, [SLUICE_BIN, "new", ...args], { cwd: root, encoding: "utf8", stdio: "pipe" });

/** What `npm install` would give the package, linked from this repository: Sluice itself, TypeScript, Node.js's typings. */
function linkDependencies(dir: string): void {
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(path.join(modules, ".bin"), { recursive: true });
  fs.symlinkSync(REPO_ROOT, path.join(modules, "sluice"));
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "typescript"), path.join(modules, "typescript"));
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "@types"), path.join(modules, "@types"));
}

test("writes the package: manifest, strict tsconfig, descriptors, topology, test, REST extension, README", ({ root }) => {
  const output = sluiceNew(root, "@acme/greeter", "--no-install");
  const dir = path.join(root, "greeter");
  assert.match(output, `wrote ${dir} (sluice: file:${REPO_ROOT})`);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  assert.is(manifest.name, "@acme/greeter");
  assert.is(manifest.dependencies.sluice, `file:${REPO_ROOT}`, "a checkout's Sluice is depended on by its folder");
  assert.match(manifest.scripts.start, /exec sluice start$/);
  assert.match(manifest.scripts.test, /node --test/);
  const tsconfig = JSON.parse(fs.readFileSync(path.join(dir, "tsconfig.json"), "utf8"));
  assert.is(tsconfig.compilerOptions.strict, true);
  assert.is(tsconfig.compilerOptions.skipLibCheck, undefined);
  for (const file of ["src/greetings.ts", "src/greetings-extension.ts", "test/greetings.test.ts", "README.md", ".gitignore", "sluice.config.yaml"]) {
    assert.ok(fs.existsSync(path.join(dir, file)), file);
  }
  assert.match(fs.readFileSync(path.join(dir, "src", "greetings.ts"), "utf8"), `"application.id": "greeter"`);
  assert.is(fs.readFileSync(path.join(dir, "META-INF", "services", "sluice.streams.TopologyProvider"), "utf8").trim(), "dist/src/greetings#Greetings");
  assert.is(sluiceNew(root, "other", "--no-install", "--sluice", "git+https://git.example.com/sluice.git").includes("(sluice: git+https://git.example.com/sluice.git)"), true);
  assert.match(sluiceNew(root, "--help"), "Usage: sluice new <name> [--sluice SPEC] [--no-install]");
});

test("refuses a name npm would refuse, and a folder that is not empty", ({ root }) => {
  const refusal = (...args: string[]) => {
    try {
      sluiceNew(root, ...args);
    } catch (error) {
      return String((error as { stderr: string }).stderr);
    }
    throw new Error(`sluice new ${args.join(" ")} should fail`);
  };
  assert.match(refusal("Bad Name", "--no-install"), "'Bad Name' is not an npm package name");
  assert.match(refusal(), "new needs one name");
  fs.mkdirSync(path.join(root, "taken"));
  fs.writeFileSync(path.join(root, "taken", "file"), "");
  assert.match(refusal("taken", "--no-install"), `${path.join(root, "taken")} exists and is not empty`);
});

test("the package compiles strictly, its test passes, and sluice start runs its topology and route", async ({ root }) => {
  sluiceNew(root, "greeter", "--no-install");
  const dir = path.join(root, "greeter");
  linkDependencies(dir);
  execFileSync(process.execPath, [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { stdio: "pipe" });
  const tests = execFileSync(process.execPath, ["--test", path.join(dir, "dist", "test", "greetings.test.js")], { cwd: dir, encoding: "utf8" });
  assert.match(tests, /# pass 1/);

  const sluice = runSluice(["start", "--server.port=0", `--streams.state.dir=${path.join(dir, ".sluice")}`], { cwd: dir });
  try {
    const url = await sluice.url(30_000);
    const kafka = new Kafka({ brokers: [`127.0.0.1:${await brokerPort(sluice)}`], logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: "names", messages: [{ value: "ada" }, { value: "alan" }, { value: "ada" }] });
    await producer.disconnect();
    const greeted = await eventually(async () => {
      const answer = (await http(`${url}/greetings/ada`)).json();
      return answer.greeted === 2 ? answer : undefined;
    }, { timeoutMs: 20_000, what: "ada counted twice" });
    assert.equal(greeted, { name: "ada", greeted: 2, status: "SUCCESS" });
    assert.equal((await http(`${url}/api/v1/streams`)).json(), ["greeter"]);
  } finally {
    sluice.child.kill("SIGTERM");
    await sluice.exited;
  }
});

test.run();
