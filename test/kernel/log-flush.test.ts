import net from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../helpers/eventually";
import { FIXTURES } from "../helpers/sluice";
import { runSluice } from "../helpers/sluice-process";

/*
 * Log lines are written asynchronously; a process that exits must not lose the last ones. Checked on the exits
 * of a real `sluice start`: a clean stop on SIGTERM while its stderr is not being read, and a fatal startup error.
 */
const test = suite("log lines on exit");

const jsonLines = (stderr: string) =>
  stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg: string });

const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

test("a clean stop writes every line, 'Sluice stopped' last, before it exits 0, also while stderr lags behind", async () => {
  const run = runSluice(["start", "--server.port=0", "--log.level=debug"], { cwd: FIXTURES });
  const url = await run.url();
  // Unread, the pipe fills (about 600 kB of request lines here), and the lines wait inside Sluice.
  run.child.stderr!.pause();
  const requests = 4_000;
  for (let sent = 0; sent < requests; sent += 100) await Promise.all(Array.from({ length: 100 }, () => fetch(`${url}/info`).then((res) => res.text())));
  run.child.kill("SIGTERM");
  await eventually(() => refusesConnections(Number(new URL(url).port)), { what: "the server to close" });
  run.child.stderr!.resume();
  assert.equal(await run.exited, { code: 0, signal: null });
  const lines = jsonLines(run.stderr());
  assert.is(lines.filter((line) => line.msg === "request").length, requests);
  assert.is(lines[lines.length - 1]?.msg, "Sluice stopped");
  assert.ok(run.stderr().endsWith("\n"));
});

test("a fatal startup error is written after the lines logged before it", async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const run = runSluice(["start", `--server.port=${port}`, "--log.level=debug"], { cwd: FIXTURES });
    assert.equal(await run.exited, { code: 1, signal: null });
    const stderr = run.stderr();
    const stopped = stderr.indexOf('"msg":"Sluice stopped"');
    const fatal = stderr.indexOf(`sluice: HTTP server cannot listen on 127.0.0.1:${port}: the address is already in use`);
    assert.ok(stopped >= 0 && fatal > stopped, stderr);
    assert.is(jsonLines(stderr.slice(0, fatal)).length, jsonLines(stderr).length, "no log line after the fatal message");
  } finally {
    taken.close();
  }
});

test.run();
