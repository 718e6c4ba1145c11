import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { optional, PLUGIN_CONTRACT, type Plugin } from "../../kernel/contracts/plugin";
import { token, type Token } from "../../kernel/contracts/token";
import { CONFIG, KERNEL_INFO, LOG_LEVEL, LOGGER } from "../../kernel/contracts/tokens";
import { Kernel } from "../../kernel/kernel";
import { eventually } from "../helpers/eventually";
import { http, REPO_ROOT, startSluice } from "../helpers/sluice";
import { EXAMPLES_PACKAGE } from "../helpers/streams";

const order = suite<{ dir: string }>("plugin lifecycle order");

order.before.each((context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-order-"));
});
order.after.each(({ dir }) => fs.rmSync(dir, { recursive: true, force: true }));

const CLOCK = token<{ now(): number }>("test.Clock");
const CACHE = token<{ size: number }>("test.Cache");

/** A plugin that records its lifecycle in `events` and provides a value for each token it declares. */
function recording(name: string, events: string[], declared: Pick<Plugin, "requires" | "provides"> = {}): Plugin {
  return {
    ...declared,
    configure: ({ components }) => {
      events.push(`configure ${name}`);
      if (declared.provides?.includes(CLOCK)) components.register(CLOCK, { useValue: { now: () => 0 } });
      if (declared.provides?.includes(CACHE)) components.register(CACHE, { useValue: { size: components.resolve(CLOCK).now() } });
    },
    start: () => void events.push(`start ${name}`),
    close: () => void events.push(`close ${name}`),
  };
}

/** A kernel with only the given plugins (no descriptors of Sluice's own) and no HTTP server. */
function kernelWith(dir: string, plugins: Plugin[]): Kernel {
  return new Kernel({ root: dir, sluiceRoot: dir, env: {}, overrides: { "server.enable": "false", "log.level": "silent" }, services: { [PLUGIN_CONTRACT]: plugins } });
}

async function startupError(kernel: Kernel): Promise<string> {
  const failure = await kernel.start().then(
    () => undefined,
    (error: Error) => error.message,
  );
  if (failure === undefined) assert.unreachable("startup should fail");
  return String(failure);
}

order("a plugin comes after the providers of what it requires, in given order otherwise, and closes before them", async ({ dir }) => {
  const events: string[] = [];
  const kernel = kernelWith(dir, [
    recording("cache", events, { requires: [CLOCK], provides: [CACHE] }),
    recording("reader", events, { requires: [optional(CACHE)] }),
    recording("clock", events, { provides: [CLOCK] }),
    recording("bystander", events),
  ]);
  await kernel.start();
  await kernel.close();
  const each = (phase: string, names: string[]) => names.map((name) => `${phase} ${name}`);
  assert.equal(events, [
    ...each("configure", ["clock", "cache", "reader", "bystander"]),
    ...each("start", ["clock", "cache", "reader", "bystander"]),
    ...each("close", ["bystander", "reader", "cache", "clock"]),
  ]);
});

order("a required component no plugin provides stops startup naming the plugin and the component", async ({ dir }) => {
  const events: string[] = [];
  const message = await startupError(kernelWith(dir, [recording("cache", events, { requires: [CLOCK] })]));
  assert.match(message, /Plugin sluice\.kernel\.Plugin given by the program #1 requires 'test\.Clock', which no plugin provides/);
  assert.equal(events, []);
});

order("an optional dependency may be missing, and a component the kernel registers needs no plugin", async ({ dir }) => {
  const events: string[] = [];
  await kernelWith(dir, [recording("reader", events, { requires: [optional(CLOCK), token("sluice.kernel.Config")] })]).start();
  assert.equal(events, ["configure reader", "start reader"]);
});

order("plugins that require each other stop startup naming the cycle", async ({ dir }) => {
  const message = await startupError(
    kernelWith(dir, [recording("clock", [], { requires: [CACHE], provides: [CLOCK] }), recording("cache", [], { requires: [optional(CLOCK)], provides: [CACHE] })]),
  );
  assert.match(message, /cycle: .*#1 requires 'test\.Cache' of .*#2, .*#2 requires 'test\.Clock' of .*#1$/);
});

order("Sluice's own plugins listed in reverse still start the broker before the applications that use it", async ({ dir }) => {
  const descriptor = fs.readFileSync(path.join(REPO_ROOT, "META-INF/services/sluice.kernel.Plugin"), "utf8");
  const lines = descriptor.split("\n").filter((line) => line.startsWith("dist/"));
  fs.mkdirSync(path.join(dir, "META-INF/services"), { recursive: true });
  fs.writeFileSync(path.join(dir, "META-INF/services/sluice.kernel.Plugin"), lines.reverse().join("\n"));
  fs.symlinkSync(path.join(REPO_ROOT, "dist"), path.join(dir, "dist"));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "sluice", version: "0.0.0-test" }));
  const sluice = await startSluice({ root: dir, sluiceRoot: dir, overrides: { "plugins.packages": EXAMPLES_PACKAGE } });
  try {
    await eventually(async () => (await http(`${sluice.url}/health/readiness`)).status === 200, { what: "every example application to run", timeoutMs: 20_000 });
    assert.equal((await http(`${sluice.url}/api/v1/streams`)).json(), ["latest", "pageviews", "sessions", "wordcount"]);
  } finally {
    await sluice.close();
  }
});

order.run();

const encapsulation = suite<{ dir: string }>("a plugin's view of the components: its declarations, enforced");

encapsulation.before.each((context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-encapsulation-"));
});
encapsulation.after.each(({ dir }) => fs.rmSync(dir, { recursive: true, force: true }));

/** A plugin that resolves `resolves` and registers `registers` in configure, declaring only `declared`. */
function reaching(declared: Pick<Plugin, "requires" | "provides">, resolves: readonly Token<unknown>[], registers: readonly Token<unknown>[] = []): Plugin {
  return {
    ...declared,
    configure: ({ components }) => {
      for (const component of registers) components.register(component, { useValue: {} });
      for (const component of resolves) components.resolveOptional(component);
    },
  };
}

encapsulation("resolving a component it does not require stops startup naming the plugin and the token", async ({ dir }) => {
  const message = await startupError(kernelWith(dir, [recording("clock", [], { provides: [CLOCK] }), reaching({ requires: [optional(CACHE)] }, [CACHE, CLOCK])]));
  assert.is(message, "Plugin sluice.kernel.Plugin given by the program #2 resolves 'test.Clock', which it does not list in requires: declare it there (optional(token) when it may be missing)");
});

encapsulation("registering a component it does not provide stops startup naming the plugin and the token", async ({ dir }) => {
  const message = await startupError(kernelWith(dir, [reaching({ provides: [CLOCK] }, [], [CLOCK, CACHE])]));
  assert.is(message, "Plugin sluice.kernel.Plugin given by the program #1 registers 'test.Cache', which it does not list in provides: declare it there");
});

encapsulation("a plugin resolves what it requires or provides and the configuration, logger and kernel info; other kernel components it declares", async ({ dir }) => {
  const kernel = kernelWith(dir, [reaching({ requires: [optional(CACHE), LOG_LEVEL], provides: [CLOCK] }, [CACHE, CLOCK, LOG_LEVEL, CONFIG, LOGGER, KERNEL_INFO], [CLOCK])]);
  await kernel.start();
  await kernel.close();
  const message = await startupError(kernelWith(dir, [reaching({}, [LOG_LEVEL])]));
  assert.match(message, /resolves 'sluice\.kernel\.LogLevel', which it does not list in requires/);
});

encapsulation.run();
