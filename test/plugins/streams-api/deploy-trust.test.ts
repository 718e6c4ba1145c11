import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { FIXTURES, http } from "../../helpers/sluice";
import { EXAMPLES_PACKAGE, startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { basicAs, deployersOn, deployWordcountAs, wordcountOn } from "./deployments-client";
import { streamsClient } from "./streams-client";

/*
 * A deploy request is not trusted configuration: it never makes Sluice load a module, read a file or an environment
 * variable, or write (and delete) outside its own directories; it names code only as registered through
 * descriptors, and only an admin may; secrets it carries are kept sealed in a 0600 deployments.json; a kept
 * deployment that cannot start is listed in ERROR while Sluice and the others run.
 */
const NAMED_CODE_PACKAGE = path.join(FIXTURES, "named-code");
const uses = () => (globalThis as { __sluiceNamedCodeUses?: { setter: number } }).__sluiceNamedCodeUses;

interface Context {
  sluice: SluiceWithExamples;
  dir: string;
  stateDir: string;
  logged: string[];
  overrides: Record<string, string>;
}

const trust = suite<Context>("configuration from a deploy request names no code, file or outside directory");

trust.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-deploy-trust-"));
  context.stateDir = path.join(context.dir, "state");
  context.logged = [];
  context.overrides = {
    ...(await deployersOn(context.dir)),
    "log.level": "info",
    "plugins.packages": `${EXAMPLES_PACKAGE},${NAMED_CODE_PACKAGE}`,
    "streams.state.dir": context.stateDir,
  };
  context.sluice = await startSluiceWithExamples(context.overrides, undefined, (line) => context.logged.push(line));
});
trust.after(async ({ sluice, dir }) => {
  await sluice?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

trust("modules, Node's own modules and unregistered names are refused with a 400 naming the field, and nothing is loaded", async ({ sluice }) => {
  const planted = path.join(NAMED_CODE_PACKAGE, "planted.js");
  const cases: [string, string][] = [
    ["leveldb.config.setter", "inspector#open"],
    ["leveldb.config.setter", "process#exit"],
    ["sasl.oauthbearer.token.provider", "child_process#execSync"],
    ["default.key.serde", "node:fs#readFileSync"],
    ["default.value.serde", `${planted}#run`],
    ["leveldb.config.setter", "no-such-setter"],
  ];
  for (const [key, value] of cases) {
    const res = await deployWordcountAs(sluice.url, "ada", { "application.id": "wordcount-code", [key]: value });
    assert.is(res.status, 400, `${key}=${value}: ${res.text}`);
    assert.match(res.json().message, `Field 'config.${key}' must name a`);
    assert.match(res.json().message, "never names a module");
  }
  assert.is((globalThis as { __sluicePlantedModuleLoaded?: boolean }).__sluicePlantedModuleLoaded, undefined);
  assert.not.ok((await http(`${sluice.url}/api/v1/streams`, { headers: basicAs("ada") })).json().includes("wordcount-code"));
});

trust("a topology's own keys and the open client keys never name a module: a 400 naming the field", async ({ sluice }) => {
  const planted = path.join(NAMED_CODE_PACKAGE, "planted.js");
  const cases: [string, unknown][] = [
    ["input.topic", "inspector#open"],
    ["output.topic", `${planted}#run`],
    ["consumer.partition.assignment.strategy", "child_process#execSync"],
    ["producer.partitioner.class", `${planted}#run`],
  ];
  for (const [key, value] of cases) {
    const res = await deployWordcountAs(sluice.url, "ada", { "application.id": "wordcount-own-key", [key]: value });
    assert.is(res.status, 400, `${key}=${value}: ${res.text}`);
    assert.match(res.json().message, `Field 'config.${key}' names a module`);
  }
  assert.is((globalThis as { __sluicePlantedModuleLoaded?: boolean }).__sluicePlantedModuleLoaded, undefined);
  assert.not.ok((await http(`${sluice.url}/api/v1/streams`, { headers: basicAs("ada") })).json().includes("wordcount-own-key"));
});

trust("registered code is named by an admin; an operator gets a 403 naming the role", async ({ sluice }) => {
  const config = { "application.id": "wordcount-named", "leveldb.config.setter": "small-cache", "default.value.serde": "shouting-string" };
  const refused = await deployWordcountAs(sluice.url, "otto", config);
  assert.is(refused.status, 403, refused.text);
  assert.match(refused.json().message, "Field 'config.leveldb.config.setter' names code (leveldb.config.setter 'small-cache'): deploying it needs role 'admin'; 'otto' has role 'operator'");
  const before = uses()?.setter ?? 0;
  const res = await deployWordcountAs(sluice.url, "ada", config);
  assert.is(res.status, 201, res.text);
  const client = streamsClient(sluice.url, "wordcount-named", basicAs("ada"));
  await client.waitForState(["RUNNING"]);
  await sluice.produce("wordcount-named-words", [{ value: "named code" }]);
  await eventually(() => (uses()?.setter ?? 0) > before, { what: "the registered setter to tune a store" });
  assert.is((await client.json()).config["default.value.serde"], "shouting-string");
  // An operator may still deploy what names no code, built-in serdes included.
  const plain = await deployWordcountAs(sluice.url, "otto", { "application.id": "wordcount-plain", "default.value.serde": "long" });
  assert.is(plain.status, 201, plain.text);
});

trust("${file:} and ${env:} references and file keys are refused, and no file content reaches an answer", async ({ sluice }) => {
  const secretFile = path.join(os.tmpdir(), `sluice-not-for-deploys-${process.pid}`);
  fs.writeFileSync(secretFile, "content-of-a-private-file");
  try {
    const cases: [string, unknown, string][] = [
      ["sasl.username", `\${file:${secretFile}}`, "holds a ${…} reference"],
      ["sasl.password", "${env:HOME}", "holds a ${…} reference"],
      ["input.topic", `pre\${file:${secretFile}}`, "holds a ${…} reference"],
      ["ssl.ca.location", secretFile, "names a file, which only trusted configuration"],
      ["ssl.key.location", "/etc/ssl/private/key.pem", "names a file, which only trusted configuration"],
    ];
    for (const [key, value, message] of cases) {
      const res = await deployWordcountAs(sluice.url, "ada", { "application.id": "wordcount-files", "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN", [key]: value });
      assert.is(res.status, 400, `${key}: ${res.text}`);
      assert.match(res.json().message, `Field 'config.${key}' ${message}`);
      assert.not.match(res.text, "content-of-a-private-file");
    }
  } finally {
    fs.rmSync(secretFile, { force: true });
  }
});

trust("state.dir and log.dir stay under Sluice's state directory, and terminate with cleanup deletes only there", async ({ sluice, stateDir, dir }) => {
  const outside = path.join(dir, "outside");
  fs.mkdirSync(path.join(outside, "wordcount-dirs"), { recursive: true });
  fs.writeFileSync(path.join(outside, "wordcount-dirs", "precious"), "keep me");
  for (const [key, value] of [["state.dir", outside], ["state.dir", "../outside"], ["log.dir", "/tmp"], ["log.dir", "logs/../../outside"]]) {
    const res = await deployWordcountAs(sluice.url, "ada", { "application.id": "wordcount-dirs", [key]: value });
    assert.is(res.status, 400, `${key}=${value}: ${res.text}`);
    assert.match(res.json().message, `Field 'config.${key}' must stay under ${stateDir}`);
  }
  const res = await deployWordcountAs(sluice.url, "ada", { "application.id": "wordcount-dirs", "state.dir": "tenant-a", "log.dir": "logs" });
  assert.is(res.status, 201, res.text);
  const client = streamsClient(sluice.url, "wordcount-dirs", basicAs("ada"));
  await client.waitForState(["RUNNING"]);
  assert.is((await client.json()).config["state.dir"], path.join(stateDir, "tenant-a"));
  await sluice.produce("wordcount-dirs-words", [{ value: "confined" }]);
  await eventually(() => fs.existsSync(path.join(stateDir, "tenant-a", "wordcount-dirs")), { what: "the instance's state under the trusted state dir" });
  assert.ok(fs.existsSync(path.join(stateDir, "logs", "wordcount-dirs.log")));
  const terminated = await http(`${sluice.url}/api/v1/streams/wordcount-dirs`, { method: "DELETE", headers: { ...basicAs("ada"), "Content-Type": "application/json" }, body: '{"cleanup": true}' });
  assert.is(terminated.status, 200, terminated.text);
  assert.not.ok(fs.existsSync(path.join(stateDir, "tenant-a", "wordcount-dirs")));
  assert.is(fs.readFileSync(path.join(outside, "wordcount-dirs", "precious"), "utf8"), "keep me");
});

trust("deployments.json is 0600 and keeps a deployed secret sealed; the instance runs again after a restart", async (context) => {
  const res = await deployWordcountAs(context.sluice.url, "ada", { "application.id": "wordcount-secret", "sasl.password": "pa55word-in-a-deploy", "topic.retention.ms": "60000" });
  assert.is(res.status, 201, res.text);
  const file = path.join(context.stateDir, "deployments.json");
  assert.is(fs.statSync(file).mode & 0o777, 0o600);
  const text = fs.readFileSync(file, "utf8");
  assert.not.match(text, "pa55word-in-a-deploy");
  assert.match(text, /"sasl.password": "aes-256-gcm:/);
  assert.not.ok(context.logged.some((line) => line.includes("pa55word-in-a-deploy")), "no log line holds the secret");
  assert.is((await streamsClient(context.sluice.url, "wordcount-secret", basicAs("ada")).json()).config["sasl.password"], "[hidden]");

  await context.sluice.close();
  context.sluice = await startSluiceWithExamples(context.overrides, undefined, (line) => context.logged.push(line));
  const again = streamsClient(context.sluice.url, "wordcount-secret", basicAs("ada"));
  await again.waitForState(["RUNNING"]);
  assert.is((await again.json()).exception, undefined);
});

trust("the audit line of a deploy, with its source address and what was deployed, is written before it acts", async ({ sluice, logged }) => {
  const res = await deployWordcountAs(sluice.url, "ada", { "application.id": "wordcount-audited" });
  assert.is(res.status, 201, res.text);
  const requested = logged.findIndex((line) => line.includes('"operation requested"') && line.includes("wordcount-audited"));
  const deployed = logged.findIndex((line) => line.includes('"application deployed"') && line.includes("wordcount-audited"));
  assert.ok(requested >= 0 && deployed > requested, "requested before deployed");
  const line = JSON.parse(logged[requested]);
  assert.is(line.component, "audit");
  assert.is(line.principal, "ada");
  assert.is(line.source, "127.0.0.1");
  assert.is(line.body.topology, "WordCount");
  assert.is(line.body.config["application.id"], "wordcount-audited");
});

trust.run();

const noKey = suite("without streams.deployments.key.location a deploy carrying a secret is refused");

noKey("a 400 names the key to set, and the file never holds the secret", async () => {
  const sluice = await startSluiceWithExamples();
  try {
    const res = await http(`${sluice.url}/api/v1/streams`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ topology: "WordCount", config: { ...wordcountOn("wordcount-s").config, "sasl.oauthbearer.client.secret": "client-secret-in-clear" } }),
    });
    assert.is(res.status, 400, res.text);
    assert.match(res.json().message, "Field 'config.sasl.oauthbearer.client.secret' holds a secret, which deployments.json keeps only encrypted: set streams.deployments.key.location");
    const file = path.join(sluice.stateDir, "deployments.json");
    assert.ok(!fs.existsSync(file) || !fs.readFileSync(file, "utf8").includes("client-secret-in-clear"));
  } finally {
    await sluice.close();
  }
});

noKey.run();

const builtins = suite("not even trusted configuration names Node's own modules");

builtins("applications.<id>.leveldb.config.setter=process#exit stops startup naming the module, and the process lives", async () => {
  const error = await startSluiceWithExamples({ "applications.wordcount.leveldb.config.setter": "process#exit" }).then(
    async (sluice) => {
      await sluice.close();
      return undefined;
    },
    (refused: Error) => refused,
  );
  assert.ok(error, "started");
  assert.match(error.message, "'process' is one of Node's own modules, which configuration never names");
});

builtins.run();

const failed = suite("a kept deployment that cannot start is listed in ERROR; Sluice and the others run");

failed("a topology Sluice lacks and a module named by an earlier Sluice's file become failed instances that terminate removes", async () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-failed-deployments-"));
  fs.writeFileSync(
    path.join(stateDir, "deployments.json"),
    JSON.stringify({
      format: 1,
      deployed: [
        { id: "gone", topology: "Gone", version: "1.0.0", config: { "application.id": "gone" } },
        { id: "exits", topology: "WordCount", version: "1.0.0", config: { ...wordcountOn("exits").config, "leveldb.config.setter": "process#exit" } },
      ],
      paused: [],
      terminated: [],
    }),
  );
  const sluice = await startSluiceWithExamples({ "streams.state.dir": stateDir });
  try {
    assert.equal((await http(`${sluice.url}/api/v1/streams`)).json(), ["exits", "gone", "latest", "pageviews", "sessions", "wordcount"]);
    const gone = await streamsClient(sluice.url, "gone").json();
    assert.is(gone.state.state, "ERROR");
    assert.match(gone.exception, "deploys 'gone' from topology 'Gone' version '1.0.0', which cannot start");
    const exits = await streamsClient(sluice.url, "exits").json();
    assert.is(exits.state.state, "ERROR");
    assert.match(exits.exception, "Field 'config.leveldb.config.setter' must name a leveldb.config.setter registered");
    await streamsClient(sluice.url, "wordcount").waitForState(["RUNNING"]);
    assert.is((await http(`${sluice.url}/health`)).status, 503);
    for (const id of ["gone", "exits"]) assert.is((await http(`${sluice.url}/api/v1/streams/${id}`, { method: "DELETE" })).status, 200);
    assert.equal((await http(`${sluice.url}/api/v1/streams`)).json(), ["latest", "pageviews", "sessions", "wordcount"]);
    assert.equal(JSON.parse(fs.readFileSync(path.join(stateDir, "deployments.json"), "utf8")).deployed, []);
  } finally {
    await sluice.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

failed.run();
