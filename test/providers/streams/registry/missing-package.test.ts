/**
 * @confluentinc/schemaregistry is an optional peer dependency: without it, a topology that names `avro` fails to build
 * with an error naming the serde and the package to install, and one that does not name it builds as before. Run in a
 * child Node.js whose module resolution cannot find the package (this repository has it, as a devDependency).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";

const DIST = path.resolve(__dirname, "..", "..", "..", "..");

/** What building a one-stream topology with `valueSerde` prints, the package hidden from require. */
function buildWithoutPackage(valueSerde: string): string {
  const script = `
    const Module = require("node:module");
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      if (request.startsWith("@confluentinc/schemaregistry")) throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: "MODULE_NOT_FOUND" });
      return resolve.call(this, request, ...rest);
    };
    const { buildTopology } = require(${JSON.stringify(path.join(DIST, "providers/streams/engine/build-topology"))});
    const { applicationConfig } = require(${JSON.stringify(path.join(DIST, "providers/streams/streams-config"))});
    const provider = { name: "p", version: "1", topology: (builder) => builder.stream("in", { valueSerde: ${JSON.stringify(valueSerde)} }).to("out", { valueSerde: "string" }) };
    try {
      buildTopology(provider, applicationConfig([{ values: { "application.id": "app", "schema.registry.url": "http://registry.invalid" }, source: "test" }]));
      console.log("built");
    } catch (error) {
      console.log(error.message);
    }`;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.is(run.status, 0, run.stderr);
  return run.stdout.trim();
}

test("without @confluentinc/schemaregistry, naming avro fails naming the serde and the package; other serdes build", () => {
  assert.is(buildWithoutPackage("avro"), "the 'avro' serde needs the optional package @confluentinc/schemaregistry: install it next to Sluice (npm install @confluentinc/schemaregistry)");
  assert.is(buildWithoutPackage("json"), "built");
});

test.run();
