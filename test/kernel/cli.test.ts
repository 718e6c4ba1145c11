import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../helpers/eventually";
import { FIXTURES, http, REPO_ROOT } from "../helpers/sluice";
import { runSluice } from "../helpers/sluice-process";
import { parseArgs } from "../../kernel/cli";

const cli = suite("sluice command line");

cli("--version prints the package version", async () => {
  const run = runSluice(["--version"]);
  assert.equal(await run.exited, { code: 0, signal: null });
  assert.is(run.stdout().trim(), JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version);
});

cli("--help lists the start command and the options", async () => {
  const run = runSluice(["--help"]);
  assert.equal(await run.exited, { code: 0, signal: null });
  assert.match(run.stdout(), /start \[--config FILE\] \[--key=value \.\.\.\]/);
  assert.match(run.stdout(), /--version/);
});

cli("start serves HTTP with flag overrides and SIGTERM exits 0", async () => {
  const run = runSluice(["start", "--server.port=0", "--server.info.app.name=cli"], { cwd: FIXTURES });
  const url = await run.url();
  assert.equal((await http(`${url}/info`)).json(), { app: { name: "cli" } });
  run.child.kill("SIGTERM");
  assert.equal(await run.exited, { code: 0, signal: null });
});

cli("start reads --config FILE and SLUICE_ environment variables", async () => {
  const file = path.join(FIXTURES, "cli-config.json");
  const run = runSluice(["start", "--config", file], { cwd: FIXTURES, env: { SLUICE_SERVER_INFO_FROM: "env" } });
  const url = await run.url();
  assert.equal((await http(`${url}/info`)).json(), { app: { name: "from-file" }, from: "env" });
  run.child.kill("SIGINT");
  assert.equal(await run.exited, { code: 0, signal: null });
});

cli("an unknown key stops startup with a non-zero exit naming it", async () => {
  const run = runSluice(["start", "--server.prot=1"], { cwd: FIXTURES });
  const { code } = await run.exited;
  assert.is(code, 1);
  assert.match(run.stderr(), /Unknown configuration key 'server\.prot'/);
});

cli("--key value works like --key=value, for booleans only with true or false", async () => {
  const run = runSluice(["start", "--server.port", "0", "--server.info.app.name", "spaced", "--server.headless", "--server.info.app.team", "-1"], { cwd: FIXTURES });
  const url = await run.url();
  assert.equal((await http(`${url}/info`)).json(), { app: { name: "spaced", team: "-1" } });
  assert.equal((await http(`${url}/api/v1`)).json().headless, true);
  run.child.kill("SIGTERM");
  assert.equal(await run.exited, { code: 0, signal: null });
});

cli("parseArgs takes a value after a space, and a boolean key's value only when it is true or false", () => {
  assert.equal(parseArgs(["start", "--server.port", "8081", "--server.headless", "false", "--broker.retention.ms", "-1"]).overrides, {
    "server.port": "8081",
    "server.headless": "false",
    "broker.retention.ms": "-1",
  });
  const flagThenCommand = parseArgs(["--server.headless", "start"]);
  assert.equal([flagThenCommand.command, flagThenCommand.overrides], ["start", { "server.headless": "true" }]);
});

cli("an unknown option names itself", async () => {
  for (const [flag, shown] of [["--severport=1", "--severport"], ["-x", "-x"]]) {
    const run = runSluice(["start", flag], { cwd: FIXTURES });
    assert.is((await run.exited).code, 1);
    assert.match(run.stderr(), `Unknown option '${shown}'`);
  }
});

cli("start --help lists the configuration keys with their defaults", async () => {
  const run = runSluice(["start", "--help"]);
  assert.equal(await run.exited, { code: 0, signal: null });
  for (const key of ["--server.port", "--server.advertised.listener", "--broker.port", "--streams.bootstrap.servers", "--plugins.packages"]) assert.match(run.stdout(), key);
  assert.match(run.stdout(), /--server\.port\s+HTTP port; 0 picks a free port \(logged at startup\)\. \(default 8080\)/);
});

cli("a port in use stops startup with a clear message and a non-zero exit", async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const run = runSluice(["start", `--server.port=${port}`], { cwd: FIXTURES });
    assert.is((await run.exited).code, 1);
    assert.match(run.stderr(), new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use`));
  } finally {
    blocker.close();
  }
});

cli("a second signal forces exit when shutdown hangs", async () => {
  const run = runSluice(["start", "--server.port=0", "--server.rest.extensions=true"], { cwd: path.join(FIXTURES, "hanging-app") });
  await run.url();
  run.child.kill("SIGTERM");
  await eventually(() => run.stderr().includes("hanging-ext: close called"), { what: "close to begin" });
  run.child.kill("SIGTERM");
  assert.equal(await run.exited, { code: 1, signal: null });
  assert.match(run.stderr(), /again, exiting without a clean shutdown/);
});

cli.run();
