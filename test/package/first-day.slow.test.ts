/**
 * A team's first day with Sluice, from the package a registry would serve: Sluice packed from this build, installed
 * from the tarball into fresh packages with `npm install`. A strict TypeScript consumer (no skipLibCheck) compiles
 * against it and runs; `npx sluice start` runs a dependent package's topology and stops on SIGTERM to npx; the
 * README's first-day block runs command by command from an empty folder (scaffold, test, start, query, deploy, stop);
 * and the package `sluice new` wrote passes its own `npm ci && npm test` in a fresh copy, as its CI would run it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../helpers/eventually";
import { devVersion, emptyPackage, npm, NPM_ENV, packSluice, runThroughNpm } from "../helpers/packed-sluice";
import { http, REPO_ROOT } from "../helpers/sluice";

const test = suite<{ tarball: string; packDir: string; cleanup: string[] }>("Sluice as a package");

test.before((context) => {
  context.packDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-pack-"));
  context.tarball = packSluice(context.packDir);
  context.cleanup = [context.packDir];
});
test.after(({ cleanup }) => {
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

const CONSUMER = `import { INTERACTIVE_QUERIES, Sluice, TopologyTestDriver, type RestExtension, type StoreQueryResult, type TopologyProvider } from "sluice";

const lengths: TopologyProvider = {
  name: "Lengths",
  version: "1.0.0",
  config: { "application.id": "lengths" },
  topology(builder) {
    builder
      .stream<string, string>("words", { keySerde: "string", valueSerde: "string" })
      .groupBy((_key, word) => word, { keySerde: "string", valueSerde: "string" })
      .count({ storeName: "counts", keySerde: "string", valueSerde: "long" });
  },
};

let answered: StoreQueryResult<string, number> | undefined;
const extension: RestExtension = {
  register({ routes, components }) {
    const queries = components.resolve(INTERACTIVE_QUERIES);
    routes.get("/counts/:word", async (req) => {
      const request = { type: "key_value" as const, query: { get: { key: req.params.word } }, set_options: { retries: 100, retry_backoff_ms: 100 } };
      answered = await queries.query<string, number>("lengths", "counts", request);
      return answered.result.success.flatMap((entry) => entry.records);
    });
  },
};

async function main(): Promise<void> {
  const driver = await TopologyTestDriver.create(lengths);
  await driver.pipeInput("words", [{ key: "a", value: "fox" }, { key: "b", value: "fox" }]);
  const store = driver.store("counts");
  const count = store.type === "timestamped_key_value" ? (await store.store.get("fox"))?.value : undefined;
  await driver.close();

  const app = await Sluice.create({ config: { server: { listener: "127.0.0.1", port: 0, "rest.extensions": true }, broker: { port: 0, storage: "memory" }, log: { level: "warn" } } });
  app.register(lengths).registerRestExtension(extension);
  await app.start();
  try {
    const response = await fetch(\`http://\${app.serverAddress()}/counts/fox\`);
    console.log(JSON.stringify({ count, status: response.status, records: await response.json(), query: answered?.status }));
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

const TOPOLOGY = `import type { TopologyProvider } from "sluice";

export const Echo: TopologyProvider = {
  name: "Echo",
  version: "1.0.0",
  config: { "application.id": "echo" },
  topology: (builder) => builder.stream("echo-in").to("echo-out"),
};
`;

const tsc = (dir: string) => execFileSync(process.execPath, [path.join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8", stdio: "pipe" });

test("a strict TypeScript consumer without skipLibCheck compiles against the installed tarball and runs", ({ tarball, cleanup }) => {
  const dir = emptyPackage("consumer");
  cleanup.push(dir);
  npm(dir, ["install", "--no-audit", "--no-fund", tarball, `typescript@${devVersion("typescript")}`, `@types/node@${devVersion("@types/node")}`]);
  assert.not.ok(fs.existsSync(path.join(dir, "node_modules", "sluice", "dist", "test")), "the tests are not in the package");
  fs.writeFileSync(path.join(dir, "consumer.ts"), CONSUMER);
  for (const modules of [{ module: "commonjs", moduleResolution: "node10" }, { module: "node16", moduleResolution: "node16" }]) {
    const compilerOptions = { strict: true, target: "ES2022", lib: ["ES2022"], types: ["node"], outDir: "dist", ...modules };
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
    try {
      tsc(dir);
    } catch (error) {
      assert.unreachable(`tsc with ${JSON.stringify(modules)} failed:\n${(error as { stdout: string }).stdout}`);
    }
    const output = execFileSync(process.execPath, [path.join(dir, "dist", "consumer.js")], { cwd: dir, encoding: "utf8", env: NPM_ENV });
    assert.equal(JSON.parse(output), { count: 2, status: 200, records: [], query: "SUCCESS" }, JSON.stringify(modules));
  }
  assert.is(npm(dir, ["exec", "--", "sluice", "--version"]).trim(), JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version);
});

test("npx sluice start --plugins.packages=. runs a dependent package's topology, and SIGTERM to npx stops it", async ({ tarball, cleanup }) => {
  const dir = emptyPackage("dependent");
  cleanup.push(dir);
  npm(dir, ["install", "--no-audit", "--no-fund", tarball, `typescript@${devVersion("typescript")}`, `@types/node@${devVersion("@types/node")}`]);
  fs.writeFileSync(path.join(dir, "topology.ts"), TOPOLOGY);
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, module: "commonjs", target: "ES2022", types: ["node"], outDir: "dist" }, files: ["topology.ts"] }));
  tsc(dir);
  fs.mkdirSync(path.join(dir, "META-INF", "services"), { recursive: true });
  fs.writeFileSync(path.join(dir, "META-INF", "services", "sluice.streams.TopologyProvider"), "dist/topology#Echo\n");
  const sluice = runThroughNpm("npx", ["sluice", "start", "--plugins.packages=.", "--server.port=0", "--broker.port=0", "--broker.storage=memory", `--streams.state.dir=${path.join(dir, ".sluice")}`], dir);
  try {
    const url = await sluice.url;
    // The server listens before the applications start.
    await eventually(async () => (await http(`${url}/api/v1/streams/echo`)).json().state?.state === "RUNNING", { timeoutMs: 30_000, what: "echo to run" });
    assert.equal((await http(`${url}/api/v1/streams`)).json(), ["echo"]);
  } finally {
    await sluice.stop();
  }
  assert.match(sluice.stderr(), '"msg":"Sluice stopped"');
});

/** The README's first-day block: its commands, continuation lines joined, each with the JSON its comment expects. */
function firstDayCommands(): { command: string; expects?: unknown }[] {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const block = /<!-- first-day:[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no first-day block");
  return block
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [command, comment] = line.split(/\s{2,}# /);
      return { command: command.trim(), expects: comment?.startsWith("{") ? JSON.parse(comment) : undefined };
    });
}

test("the README's first day runs from an empty folder: scaffold, test, start, query, deploy, stop", async ({ tarball, cleanup }) => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-first-day-"));
  cleanup.push(home);
  // npm start listens on ports 0 (the environment overrides the package's sluice.config.yaml); the commands then name
  // the ports it got instead of 8080 and 9092.
  const env = { ...NPM_ENV, SLUICE: tarball, SLUICE_SERVER_PORT: "0", SLUICE_BROKER_PORT: "0" };
  let cwd = home;
  let sluice: ReturnType<typeof runThroughNpm> | undefined;
  const ports = { http: "localhost:8080", broker: "127.0.0.1:9092" };
  try {
    for (const { command, expects } of firstDayCommands()) {
      if (command.startsWith("cd ")) cwd = path.resolve(cwd, command.slice(3));
      else if (command === "npm start &") {
        sluice = runThroughNpm("npm", ["start"], cwd, env);
        ports.http = (await sluice.url).replace("http://", "");
        ports.broker = await sluice.broker;
      } else if (command.startsWith("kill %1")) {
        assert.ok(sluice, "npm start ran before");
        assert.equal(await sluice.stop(), { code: 0, signal: null }, sluice.stderr().slice(-2_000));
        assert.match(sluice.stderr(), '"msg":"Sluice stopped"');
        sluice = undefined;
      } else {
        const shell = command.replaceAll("localhost:8080", ports.http).replaceAll("127.0.0.1:9092", ports.broker);
        const run = () => execFileSync("bash", ["-c", shell], { cwd, env, encoding: "utf8", stdio: "pipe", timeout: 600_000 });
        if (expects === undefined) run();
        else await eventually(() => JSON.stringify(JSON.parse(run())) === JSON.stringify(expects), { timeoutMs: 30_000, intervalMs: 200, what: `${command} to answer ${JSON.stringify(expects)}` });
      }
    }
    assert.is(sluice, undefined, "the block stops what it started");
  } finally {
    await sluice?.stop();
  }
  // The package as its CI gets it: a fresh copy of what would be committed, its dependencies from its lock file.
  const written = path.join(home, "my-topology");
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-first-day-ci-"));
  cleanup.push(copy);
  fs.cpSync(written, copy, { recursive: true, filter: (source) => ![".sluice", "dist", "node_modules"].includes(path.basename(source)) });
  npm(copy, ["ci", "--no-audit", "--no-fund"]);
  assert.match(npm(copy, ["test"]), /# pass 1/);
});

test.run();
