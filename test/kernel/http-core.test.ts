import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { http, REPO_ROOT, startSluice, type RunningSluice } from "../helpers/sluice";

const server = suite<{ sluice: RunningSluice }>("http core and built-in plugins");

server.before(async (context) => {
  context.sluice = await startSluice({ overrides: { "server.info.app.name": "demo", "server.info.app.owner.team": "data" } });
});
server.after(async ({ sluice }) => sluice.close());

server("GET /info nests the server.info entries", async ({ sluice }) => {
  const res = await http(`${sluice.url}/info`);
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(res.json(), { app: { name: "demo", owner: { team: "data" } } });
});

server("GET /health reports UP with no applications", async ({ sluice }) => {
  const res = await http(`${sluice.url}/health`);
  assert.is(res.status, 200);
  const { components, ...body } = res.json();
  assert.equal(body, { status: "UP", ready: true, not_ready: [], paused: [], applications: {} });
  assert.equal([components.liveness.status, components.readiness], ["UP", { status: "UP", not_ready: {} }]);
});

server("GET /api/v1 gives the version and headless flag", async ({ sluice }) => {
  const version = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;
  assert.equal((await http(`${sluice.url}/api/v1`)).json(), { version, headless: false });
});

server("an unknown route is a 404 JSON error", async ({ sluice }) => {
  const res = await http(`${sluice.url}/nope?x=1`);
  assert.is(res.status, 404);
  assert.equal(res.json(), { error_code: 404, message: "No route for GET /nope", path: "/nope" });
});

server("a wrong method on a known path is a 405 JSON error with Allow", async ({ sluice }) => {
  const res = await http(`${sluice.url}/info`, { method: "DELETE" });
  assert.is(res.status, 405);
  assert.is(res.headers.get("allow"), "GET");
  assert.is(res.json().error_code, 405);
  assert.is(res.json().path, "/info");
});

server("a 2 MiB body is a 413 JSON error", async ({ sluice }) => {
  const res = await http(`${sluice.url}/api/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: Buffer.alloc(2 * 1024 * 1024, 32),
  });
  assert.is(res.status, 413);
  assert.is(res.json().error_code, 413);
  assert.match(res.json().message, /1048576 bytes/);
});

server("a chunked body over the limit is cut off with 413", async ({ sluice }) => {
  const chunks = (async function* () {
    for (let i = 0; i < 40; i++) yield new Uint8Array(64 * 1024);
  })();
  const res = await http(`${sluice.url}/api/v1`, { method: "POST", body: chunks as any, duplex: "half" } as RequestInit);
  assert.is(res.status, 413);
});

const lifecycle = suite("http server lifecycle");

lifecycle("headless mode shows in /api/v1", async () => {
  const sluice = await startSluice({ overrides: { "server.headless": "true" } });
  try {
    assert.is((await http(`${sluice.url}/api/v1`)).json().headless, true);
  } finally {
    await sluice.close();
  }
});

lifecycle("a port already in use fails startup with a clear error", async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    await startSluice({ overrides: { "server.port": String(port) } }).then(
      () => assert.unreachable("startup should fail"),
      (error: Error) => assert.match(error.message, `cannot listen on 127.0.0.1:${port}: the address is already in use`),
    );
  } finally {
    blocker.close();
  }
});

lifecycle("removing the /info line from its descriptor removes that route and nothing else", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-noinfo-"));
  try {
    const descriptor = fs.readFileSync(path.join(REPO_ROOT, "META-INF/services/sluice.kernel.Plugin"), "utf8");
    const withoutInfo = descriptor.split("\n").filter((line) => !line.includes("plugins/info#")).join("\n");
    fs.mkdirSync(path.join(root, "META-INF/services"), { recursive: true });
    fs.writeFileSync(path.join(root, "META-INF/services/sluice.kernel.Plugin"), withoutInfo);
    fs.symlinkSync(path.join(REPO_ROOT, "dist"), path.join(root, "dist"));
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "sluice", version: "0.0.0-test" }));
    const sluice = await startSluice({ root, sluiceRoot: root });
    try {
      assert.is((await http(`${sluice.url}/info`)).status, 404);
      assert.is((await http(`${sluice.url}/health`)).status, 200);
      assert.is((await http(`${sluice.url}/api/v1`)).status, 200);
    } finally {
      await sluice.close();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

server.run();
lifecycle.run();
