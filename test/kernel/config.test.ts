import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ConfigDeclarations } from "../../kernel/config/config-validation";
import { loadConfig, type ConfigSources } from "../../kernel/config/load-config";
import { discoveredDeclarations } from "../../kernel/config/plugin-configuration";
import { ServiceLoader } from "../../kernel/service-loader";
import { configSection } from "../../kernel/config/config-schema";
import { PLUGIN_CONTRACT } from "../../kernel/contracts/plugin";
import { REPO_ROOT, startSluice } from "../helpers/sluice";
import { EXAMPLES_PACKAGE } from "../helpers/streams";

const config = suite<{ dir: string }>("configuration");

config.before.each((context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-config-"));
});
config.after.each(({ dir }) => fs.rmSync(dir, { recursive: true, force: true }));

/** The sections Sluice's own plugins declare, and with `packages` those of the plugins there. */
const declarations = (packages: string[] = []): Promise<ConfigDeclarations> =>
  discoveredDeclarations(new ServiceLoader({ root: REPO_ROOT, sluiceRoot: REPO_ROOT, extraPackages: packages }));

const load = async (dir: string, sources: Partial<ConfigSources> = {}, packages: string[] = []) => loadConfig({ root: dir, env: {}, ...sources }, await declarations(packages));

async function rejects(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await promise.then(
    () => assert.unreachable("expected a configuration error"),
    (error: Error) => assert.match(error.message, pattern),
  );
}

config("typed defaults apply when nothing is configured", async ({ dir }) => {
  const loaded = await load(dir);
  assert.is(loaded.get("server.port"), 8080);
  assert.is(loaded.get("server.listener"), "127.0.0.1");
  assert.is(loaded.get("server.rest.extensions"), false);
  assert.is(loaded.get("broker.port"), 9092);
  assert.is(loaded.get("streams.bootstrap.servers"), undefined);
});

config("sluice.config.json is found and nested objects become dotted keys", async ({ dir }) => {
  fs.writeFileSync(path.join(dir, "sluice.config.json"), JSON.stringify({ server: { port: 9000, info: { app: { name: "x" } } }, streams: { "state.dir": "/tmp/s" } }));
  const loaded = await load(dir);
  assert.is(loaded.get("server.port"), 9000);
  assert.is(loaded.get("server.info.app.name"), "x");
  assert.is(loaded.get("streams.state.dir"), "/tmp/s");
  assert.equal(loaded.section("server.info"), { "app.name": "x" });
});

config(".sluicerc.yaml and package.json#sluice are found", async ({ dir }) => {
  fs.writeFileSync(path.join(dir, ".sluicerc.yaml"), "server:\n  headless: true\n");
  assert.is((await load(dir)).get("server.headless"), true);
  fs.rmSync(path.join(dir, ".sluicerc.yaml"));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", sluice: { "server.port": 7000 } }));
  assert.is((await load(dir)).get("server.port"), 7000);
});

config("an explicit --config file is used", async ({ dir }) => {
  const file = path.join(dir, "custom.json");
  fs.writeFileSync(file, JSON.stringify({ server: { port: 1234 } }));
  assert.is((await load(dir, { configFile: file })).get("server.port"), 1234);
});

config("environment variables override the file, flags override both", async ({ dir }) => {
  fs.writeFileSync(path.join(dir, "sluice.config.json"), JSON.stringify({ server: { port: 9000, listener: "0.0.0.0" } }));
  const env = { SLUICE_SERVER_PORT: "8081", SLUICE_STREAMS_STATS_DUMPPERIODSEC: "5", SLUICE_SERVER_INFO_APP_NAME: "envname", HOME: "/x" };
  const loaded = await load(dir, { env, overrides: { "server.port": "8082" } });
  assert.is(loaded.get("server.port"), 8082);
  assert.is(loaded.get("server.listener"), "0.0.0.0");
  assert.is(loaded.get("streams.stats.dumpPeriodSec"), 5);
  assert.is(loaded.get("server.info.app.name"), "envname");
});

config("per-application keys are validated against the streams keys", async ({ dir }) => {
  const loaded = await load(dir, { overrides: { "applications.wordcount.commit.interval.ms": "50" } });
  assert.is(loaded.get("applications.wordcount.commit.interval.ms"), 50);
  await rejects(load(dir, { overrides: { "applications.wordcount.no.such": "1" } }), /Unknown configuration key 'applications\.wordcount\.no\.such'/);
});

config("an unknown key in a known section stops with a message naming it", async ({ dir }) => {
  await rejects(load(dir, { overrides: { "server.prot": "1" } }), /Unknown configuration key 'server\.prot' \(from command-line flag --server\.prot\)/);
  fs.writeFileSync(path.join(dir, "sluice.config.json"), JSON.stringify({ broker: { colour: "red" } }));
  await rejects(load(dir), /Unknown configuration key 'broker\.colour' \(from .*sluice\.config\.json\)/);
  fs.rmSync(path.join(dir, "sluice.config.json"));
  await rejects(load(dir, { env: { SLUICE_SERVER_NOPE: "1" } }), /Unknown configuration key 'server\.nope' \(from environment variable SLUICE_SERVER_NOPE\)/);
});

config("a value of the wrong type stops with a message naming the key", async ({ dir }) => {
  await rejects(load(dir, { overrides: { "server.port": "eighty" } }), /'server\.port' \(from command-line flag --server\.port\) must be an integer, got "eighty"/);
  await rejects(load(dir, { env: { SLUICE_SERVER_HEADLESS: "maybe" } }), /'server\.headless' \(from environment variable SLUICE_SERVER_HEADLESS\) must be true or false/);
  await rejects(load(dir, { overrides: { "broker.storage": "tape" } }), /'broker\.storage' .* must be one of file, memory/);
});

config("the streams runtime's group protocol is classic only: the consumer protocol (KIP-848) and KIP-1071's are refused, naming it", async ({ dir }) => {
  for (const protocol of ["consumer", "streams"]) {
    await rejects(load(dir, { overrides: { "streams.group.protocol": protocol } }), new RegExp(`'streams\\.group\\.protocol' .* must be one of classic, got "${protocol}"`));
  }
  assert.is((await load(dir, { overrides: { "server.port": "0" } })).get("streams.group.protocol"), "classic");
});

config("number keys refuse values outside their min and max, naming the range; a default outside them is a programming error", async ({ dir }) => {
  await rejects(load(dir, { overrides: { "server.port": "70000" } }), /'server\.port' \(from command-line flag --server\.port\) must be from 0 to 65535, got "70000"/);
  await rejects(load(dir, { env: { SLUICE_SERVER_SSE_BUFFER_SIZE: "0" } }), /'server\.sse\.buffer\.size' \(from environment variable SLUICE_SERVER_SSE_BUFFER_SIZE\) must be at least 1, got "0"/);
  assert.is((await load(dir, { overrides: { "server.sse.history.size": "0", "server.port": "0" } })).get("server.sse.history.size"), 0);
  assert.throws(() => configSection({ name: "acme", doc: "", keys: { ratio: { type: "number", default: 2, max: 1, doc: "" } } }), /acme\.ratio: default 2 does not fit its own declaration/);
});

config("a section no loaded plugin declares stops startup naming it; from the environment it is not Sluice's", async ({ dir }) => {
  await rejects(load(dir, { programmatic: { acme: { greeting: "hi" } } }), /'acme\.greeting' \(from the program's configuration\) is in section 'acme', which no loaded plugin declares/);
  await rejects(load(dir, { overrides: { "examples.feed": "true" } }), /'examples\.feed' \(from command-line flag --examples\.feed\) is in section 'examples'/);
  assert.is((await load(dir, { env: { SLUICE_HOME: "/opt/sluice", SLUICE_ACME_GREETING: "hi" } })).get("acme.greeting"), undefined);
});

config("a package's plugin declares its own section: its keys are validated and typed", async ({ dir }) => {
  const loaded = await load(dir, { overrides: { "examples.feed.interval.ms": "250" } }, [EXAMPLES_PACKAGE]);
  assert.is(loaded.get("examples.feed.interval.ms"), 250);
  assert.is(loaded.get("examples.feed"), false);
  await rejects(load(dir, { overrides: { "examples.feed": "maybe" } }, [EXAMPLES_PACKAGE]), /'examples\.feed' \(from command-line flag --examples\.feed\) must be true or false/);
  await rejects(load(dir, { overrides: { "examples.colour": "red" } }, [EXAMPLES_PACKAGE]), /Unknown configuration key 'examples\.colour'/);
});

config("a section declared by two plugins stops startup naming both", async () => {
  const squatter = { configSections: [configSection({ name: "broker", doc: "", keys: {} })] };
  await rejects(
    startSluice({ services: { [PLUGIN_CONTRACT]: [squatter] } }),
    /plugin sluice\.kernel\.Plugin given by the program #1 and plugin dist\/providers\/broker\/broker-plugin#BrokerPlugin both declare configuration section 'broker'/,
  );
});

config("a plugin's sub-section of another's section keeps its keys' names, validated by the longest claimed prefix; without the plugin they are unknown", async ({ dir }) => {
  const loaded = await load(dir, { overrides: { "server.sse.buffer.size": "5" }, env: { SLUICE_SERVER_QUERY_TIMEOUT_MS: "250" } });
  assert.is(loaded.get("server.sse.buffer.size"), 5);
  assert.is(loaded.get("server.query.timeout.ms"), 250);
  assert.is(loaded.get("server.webui.enable"), true);
  // REST extensions, configured with the server section, still see them under it.
  assert.is(loaded.section("server")["sse.buffer.size"], 5);
  await rejects(load(dir, { overrides: { "server.sse.colour": "red" } }), /Unknown configuration key 'server\.sse\.colour' .*section 'server\.sse'/);
  await rejects(load(dir, { overrides: { "server.sse.buffer.size": "many" } }), /'server\.sse\.buffer\.size' .* must be an integer/);

  const root = path.join(dir, "without-event-streams");
  const descriptor = fs.readFileSync(path.join(REPO_ROOT, "META-INF/services/sluice.kernel.Plugin"), "utf8");
  fs.mkdirSync(path.join(root, "META-INF/services"), { recursive: true });
  fs.writeFileSync(path.join(root, "META-INF/services/sluice.kernel.Plugin"), descriptor.split("\n").filter((line) => !line.includes("event-streams")).join("\n"));
  fs.symlinkSync(path.join(REPO_ROOT, "dist"), path.join(root, "dist"));
  fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "sluice", version: "0.0.0-test" }));
  const without = await discoveredDeclarations(new ServiceLoader({ root, sluiceRoot: root, extraPackages: [] }));
  assert.ok(without.sections().some((section) => section.name === "server.query"), "the other plugins' sub-sections are there");
  await rejects(
    loadConfig({ root: dir, env: {}, overrides: { "server.sse.buffer.size": "5" } }, without),
    /^Unknown configuration key 'server\.sse\.buffer\.size' \(from command-line flag --server\.sse\.buffer\.size\); see config\/README\.md for the keys of section 'server'$/,
  );
});

config("a sub-section over keys its parent section declares stops startup naming both", async () => {
  const squatter = { configSections: [configSection({ name: "server.ssl", doc: "", keys: {} })] };
  await rejects(startSluice({ services: { [PLUGIN_CONTRACT]: [squatter] } }), /plugin sluice\.kernel\.Plugin given by the program #1 claims configuration section 'server\.ssl', where the kernel declares 'server\.ssl\.enable'/);
});

config.run();
