import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createLogger, LogLevelSetting } from "../../kernel/logger";

/*
 * The structured logger on its own: the line layout users and tests rely on, levels (also changed while children
 * log), secrets hidden at any depth, errors as objects, and fields JSON cannot hold.
 */
const test = suite("structured logger");

function capture(level: LogLevelSetting | "debug" | "info" | "warn" | "error" | "silent" = "debug") {
  const lines: string[] = [];
  return { logger: createLogger(level, {}, (line) => lines.push(line)), lines, parsed: () => lines.map((line) => JSON.parse(line)) };
}

test("a line is one JSON object: time, level as a word, msg, then the child's fields, then the line's own", () => {
  const { logger, lines } = capture("info");
  logger.child({ plugin: "p" }).info("HTTP server listening", { address: "http://127.0.0.1:1" });
  assert.is(lines.length, 1);
  assert.ok(lines[0].endsWith("}\n"));
  const line = JSON.parse(lines[0]);
  assert.equal(Object.keys(line), ["time", "level", "msg", "plugin", "address"]);
  assert.is(line.level, "info");
  assert.ok(!Number.isNaN(Date.parse(line.time)));
  assert.match(lines[0], /"msg":"HTTP server listening","plugin":"p","address":"http:\/\/127\.0\.0\.1:1"/);
});

test("lines below the level are not written, and isLevelEnabled says so", () => {
  const { logger, parsed } = capture("warn");
  logger.debug("d");
  logger.info("i");
  logger.warn("w");
  logger.error("e");
  assert.equal(parsed().map((line) => line.msg), ["w", "e"]);
  assert.is(logger.isLevelEnabled("info"), false);
  assert.is(logger.isLevelEnabled("error"), true);
});

test("changing the level reaches every child at once, also children made before", () => {
  const level = new LogLevelSetting("info");
  const { logger, parsed } = capture(level);
  const child = logger.child({ component: "c" });
  const grandchild = child.child({ task: "0_0" });
  grandchild.debug("before");
  level.level = "debug";
  grandchild.debug("after");
  child.debug("after too");
  level.level = "silent";
  logger.error("silenced");
  assert.equal(parsed().map((line) => line.msg), ["after", "after too"]);
  assert.throws(() => (level.level = "verbose" as never), /Unknown log level 'verbose'; levels are debug, info, warn, error, silent/);
});

test("secrets are hidden at any depth, in arrays too, and the caller's objects are left as they were", () => {
  const { logger, parsed } = capture();
  const config = { "ssl.key.password": "k3y", "sasl.jaas.config": "org.apache… password=\"pw\"", "bootstrap.servers": "kafka:9092" };
  const fields = {
    password: "hunter2",
    request: { headers: { Authorization: "Basic dXNlcjpwdw==", accept: "*/*" }, nested: [{ clientSecret: "s" }, { token: "t", tokens: 3 }] },
    config,
  };
  logger.child({ peerToken: "p" }).info("connecting", fields);
  const [line] = parsed();
  assert.is(line.peerToken, "[hidden]");
  assert.is(line.password, "[hidden]");
  assert.equal(line.request.headers, { Authorization: "[hidden]", accept: "*/*" });
  assert.equal(line.request.nested, [{ clientSecret: "[hidden]" }, { token: "[hidden]", tokens: "[hidden]" }]);
  assert.equal(line.config, { "ssl.key.password": "[hidden]", "sasl.jaas.config": "[hidden]", "bootstrap.servers": "kafka:9092" });
  for (const secret of ["hunter2", "dXNlcjpwdw", "k3y", "pw"]) assert.not.ok(JSON.stringify(line).includes(secret), secret);
  assert.is(fields.password, "hunter2");
  assert.is(config["ssl.key.password"], "k3y");
});

test("an error field is its name, message and stack", () => {
  const { logger, parsed } = capture();
  logger.error("failed", { error: new TypeError("bad input") });
  const [line] = parsed();
  assert.is(line.error.name, "TypeError");
  assert.is(line.error.message, "bad input");
  assert.match(line.error.stack, /TypeError: bad input/);
});

test("fields JSON cannot hold cost the fields, not the line, and never throw at the caller", () => {
  const { logger, parsed } = capture();
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  logger.info("a bigint", { n: 1n });
  logger.info("a cycle", { cycle });
  assert.equal(parsed().map((line) => line.msg), ["a bigint", "a cycle"]);
  assert.match(parsed()[0].log_error, /^fields left out: /);
});

test.run();
