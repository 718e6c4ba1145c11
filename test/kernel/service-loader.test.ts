import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ServiceLoader } from "../../kernel/service-loader";
import { FIXTURES, REPO_ROOT } from "../helpers/sluice";

const loader = suite<{ dir: string }>("service loader");

loader.before.each((context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-loader-"));
});
loader.after.each(({ dir }) => fs.rmSync(dir, { recursive: true, force: true }));

function writePackage(root: string, name: string, descriptor: string, modules: Record<string, string> = {}): void {
  fs.mkdirSync(path.join(root, "META-INF/services"), { recursive: true });
  fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name, version: "1.0.0" }));
  fs.writeFileSync(path.join(root, "META-INF/services/test.Contract"), descriptor);
  for (const [file, source] of Object.entries(modules)) fs.writeFileSync(path.join(root, file), source);
}

loader("descriptors are read in order: application, Sluice, packages by name (scoped too), configured folders", async ({ dir }) => {
  const sluiceRoot = path.join(dir, "sluice-pkg");
  writePackage(dir, "app", "# comment\n\napp#A\n", { "app.js": "exports.A = { id: 'app' };" });
  writePackage(sluiceRoot, "sluice", "core#S\n", { "core.js": "exports.S = { id: 'sluice' };" });
  writePackage(path.join(dir, "node_modules/zeta"), "zeta", "z#Z  # trailing comment\n", { "z.js": "exports.Z = { id: 'zeta' };" });
  writePackage(path.join(dir, "node_modules/@scope/alpha"), "@scope/alpha", "a#First\na#Second\n", { "a.js": "exports.First = { id: 'alpha-1' }; exports.Second = class { constructor() { this.id = 'alpha-2'; } };" });
  writePackage(path.join(dir, "extra"), "extra", "e#E\n", { "e.js": "exports.E = { id: 'extra' };" });
  const services = await new ServiceLoader({ root: dir, sluiceRoot, extraPackages: ["extra"] }).load<{ id: string }>("test.Contract");
  const ids = services.map(({ exported }) => (typeof exported === "function" ? new exported().id : exported.id));
  assert.equal(ids, ["app", "sluice", "alpha-1", "alpha-2", "zeta", "extra"]);
  assert.is(services[2].entry.line, 1);
  assert.is(services[3].entry.line, 2);
});

loader("each instance says how another thread loads it again: the module file and export; none for a class that takes injected components", async ({ dir }) => {
  writePackage(dir, "app", "m#Ready\nm#Plain\nm#Injected\n", {
    "m.js": "exports.Ready = { id: 1 }; exports.Plain = class { constructor() { this.id = 2; } }; exports.Injected = class { constructor(components) { this.id = 3; } };",
  });
  const services = await new ServiceLoader({ root: dir, sluiceRoot: dir }).instances<{ id: number }>("test.Contract" as never, (type) => new type());
  const file = fs.realpathSync(path.join(dir, "m.js"));
  assert.equal(services.map(({ module }) => module && { ...module, file: fs.realpathSync(module.file) }), [
    { file, exportName: "Ready", construct: false },
    { file, exportName: "Plain", construct: true },
    undefined,
  ]);
});

loader("a line that is not module#export is an error naming the file and line", async ({ dir }) => {
  writePackage(dir, "app", "ok#A\nnot a descriptor line\n", { "ok.js": "exports.A = {};" });
  assert.throws(() => new ServiceLoader({ root: dir, sluiceRoot: dir }).discover("test.Contract"), /test\.Contract:2: descriptor line 'not a descriptor line' is not '<module path>#<export>'/);
});

loader("a module that cannot load is an error naming the file, the line and the cause", async () => {
  const root = path.join(FIXTURES, "broken-app");
  await new ServiceLoader({ root, sluiceRoot: root }).load("sluice.kernel.Plugin").then(
    () => assert.unreachable("loading should fail"),
    (error: Error) => assert.match(error.message, /broken-app\/META-INF\/services\/sluice\.kernel\.Plugin:3: cannot load module 'missing\/module': Cannot find module/),
  );
});

loader("a missing export is an error naming it", async ({ dir }) => {
  writePackage(dir, "app", "mod#Absent\n", { "mod.js": "exports.Present = {};" });
  await new ServiceLoader({ root: dir, sluiceRoot: dir }).load("test.Contract").then(
    () => assert.unreachable("loading should fail"),
    (error: Error) => assert.match(error.message, /test\.Contract:1: module 'mod' has no export 'Absent'/),
  );
});

loader("Sluice's own plugins are found only through its descriptor", () => {
  const entries = new ServiceLoader({ root: REPO_ROOT, sluiceRoot: REPO_ROOT }).discover("sluice.kernel.Plugin");
  assert.ok(entries.some((entry) => entry.modulePath === "dist/plugins/info" && entry.exportName === "InfoPlugin"));
  const kernelSources = fs.readdirSync(path.join(REPO_ROOT, "kernel"), { recursive: true }) as string[];
  for (const file of kernelSources.filter((f) => f.endsWith(".ts"))) {
    const source = fs.readFileSync(path.join(REPO_ROOT, "kernel", file), "utf8");
    assert.not.match(source, /from "(\.\.\/)+(plugins|providers)\//, `kernel/${file} imports a plugin or provider`);
  }
});

loader.run();
