import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createLogger, LogLevelSetting } from "../../../../kernel/logger";
import { withApplicationLogFile } from "../../../../providers/streams/logging/rotating-file-log";
import { eventually } from "../../../helpers/eventually";

/*
 * An application's own log file: written asynchronously at the runtime logger's level (also after it changes),
 * secrets hidden, rotated at its size limit without losing or reordering lines, and complete when the process exits.
 */
const test = suite<{ dir: string }>("application log file");

test.before.each((context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-app-log-"));
});
test.after.each(({ dir }) => fs.rmSync(dir, { recursive: true, force: true }));

const fileLines = (file: string) =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

test("lines go to the file and to the runtime's logger, at the logger's level as it changes, secrets hidden", async ({ dir }) => {
  const level = new LogLevelSetting("info");
  const stderr: string[] = [];
  const logger = withApplicationLogFile(createLogger(level, {}, (line) => stderr.push(line)), "wordcount", dir, 0);
  logger.debug("not at info");
  logger.info("state changed", { to: "RUNNING", config: { "ssl.key.password": "k3y" } });
  level.level = "debug";
  logger.debug("now at debug", { error: new Error("boom") });
  const file = path.join(dir, "wordcount.log");
  const lines = await eventually(() => (fileLines(file).length === 2 ? fileLines(file) : undefined), { what: "two lines in the file" });
  assert.equal(
    lines.map(({ level, msg, app }) => ({ level, msg, app })),
    [
      { level: "info", msg: "state changed", app: "wordcount" },
      { level: "debug", msg: "now at debug", app: "wordcount" },
    ],
  );
  assert.equal(lines[0].config, { "ssl.key.password": "[hidden]" });
  assert.is(lines[1].error.message, "boom");
  assert.equal(stderr.map((line) => JSON.parse(line).msg), ["state changed", "now at debug"]);
  assert.is(logger.isLevelEnabled?.("debug"), true);
});

test("the file rotates to .log.1 before a line would take it past the limit; the two hold the latest lines in order", async ({ dir }) => {
  const logger = withApplicationLogFile(createLogger("info", {}, () => undefined), "rotating", dir, 2_000);
  const count = 200;
  for (let index = 0; index < count; index++) logger.info("line", { index });
  const file = path.join(dir, "rotating.log");
  const contiguousTail = (indexes: number[]) => indexes.every((index, offset) => index === count - indexes.length + offset);
  // The file renamed to .1 is still being written by its own descriptor for a moment.
  const kept = await eventually(
    () => {
      const indexes = [...fileLines(`${file}.1`), ...fileLines(file)].map((line) => line.index as number);
      return indexes.length > 2 && contiguousTail(indexes) ? indexes : undefined;
    },
    { what: "the latest lines, in order, in .log.1 then .log" },
  );
  assert.is(kept[kept.length - 1], count - 1);
  for (const name of [file, `${file}.1`]) assert.ok(fs.statSync(name).size <= 2_000, `${name}: ${fs.statSync(name).size} bytes`);
});

test("a process that exits right after logging leaves every line in the file", ({ dir }) => {
  const modulePath = path.resolve(__dirname, "../../../../providers/streams/logging/rotating-file-log.js");
  const loggerPath = path.resolve(__dirname, "../../../../kernel/logger.js");
  const script = `
    const { withApplicationLogFile } = require(${JSON.stringify(modulePath)});
    const { createLogger } = require(${JSON.stringify(loggerPath)});
    const logger = withApplicationLogFile(createLogger("info", {}, () => {}), "exiting", ${JSON.stringify(dir)}, 0);
    for (let index = 0; index < 20000; index++) logger.info("line", { index });
    process.exit(0);
  `;
  const result = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  assert.is(result.status, 0, result.stderr);
  const lines = fileLines(path.join(dir, "exiting.log"));
  assert.is(lines.length, 20_000);
  assert.is(lines[lines.length - 1].index, 19_999);
});

test.run();
