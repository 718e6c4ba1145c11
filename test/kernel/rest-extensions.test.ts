import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { FIXTURES, http, startSluice } from "../helpers/sluice";

const APP = path.join(FIXTURES, "extension-app");
// The same module instance the kernel loads (same resolved path, same require cache).
const { lifecycle } = require(path.join(APP, "node_modules/@acme/sluice-hello/hello.js")) as { lifecycle: string[] };

const extensions = suite("REST extensions");

extensions.before.each(() => {
  lifecycle.length = 0;
});

extensions("an installed scoped package adds routes through its descriptor", async () => {
  const sluice = await startSluice({ root: APP, overrides: { "server.rest.extensions": "true" } });
  try {
    const res = await http(`${sluice.url}/hello/w%C3%B6rld`);
    assert.is(res.status, 200);
    assert.equal(res.json(), { hello: "wörld", sluice: sluice.kernel.version });
    assert.equal((await http(`${sluice.url}/app-route`)).json(), { from: "application" });
    assert.is((await http(`${sluice.url}/info`)).status, 200, "built-in routes stay");
  } finally {
    await sluice.close();
  }
});

extensions("configure receives the server section", async () => {
  const sluice = await startSluice({ root: APP, overrides: { "server.rest.extensions": "true", "server.info.app.name": "demo" } });
  try {
    const received = (await http(`${sluice.url}/hello-config`)).json();
    assert.is(received["rest.extensions"], true);
    assert.is(received["info.app.name"], "demo");
    assert.is(received.listener, "127.0.0.1");
  } finally {
    await sluice.close();
  }
});

extensions("extension routes get the same JSON body and error handling", async () => {
  const sluice = await startSluice({ root: APP, overrides: { "server.rest.extensions": "true" } });
  try {
    const echo = await http(`${sluice.url}/hello-echo`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });
    assert.equal(echo.json(), { received: { a: 1 } });
    const failed = await http(`${sluice.url}/hello-fail`);
    assert.is(failed.status, 500);
    assert.equal(failed.json(), { error_code: 500, message: "Internal server error", path: "/hello-fail" });
    assert.is((await http(`${sluice.url}/hello/x`, { method: "PUT" })).status, 405);
  } finally {
    await sluice.close();
  }
});

extensions("close runs at shutdown, after configure and register", async () => {
  const sluice = await startSluice({ root: APP, overrides: { "server.rest.extensions": "true" } });
  assert.equal(lifecycle, ["configure", "register"]);
  await sluice.close();
  assert.equal(lifecycle, ["configure", "register", "close"]);
});

extensions("nothing loads when server.rest.extensions is false, and one warning names what was skipped", async () => {
  const logged: string[] = [];
  const sluice = await startSluice({ root: APP, overrides: { "log.level": "info" }, logSink: (line) => logged.push(line) });
  try {
    assert.is((await http(`${sluice.url}/hello/x`)).status, 404);
    assert.is((await http(`${sluice.url}/app-route`)).status, 404);
    assert.equal(lifecycle, []);
    const skipped = logged.map((line) => JSON.parse(line)).filter((line) => /REST extensions/.test(line.msg));
    assert.equal(skipped, [
      {
        ...skipped[0],
        level: "warn",
        msg: "REST extensions found but not loaded: server.rest.extensions is false",
        extensions: ["extensions/app-extension#AppExtension", "hello#HelloExtension"],
      },
    ]);
  } finally {
    await sluice.close();
  }
});

extensions("an extension taking a built-in route fails startup naming both", async () => {
  await startSluice({ root: path.join(FIXTURES, "conflict-app"), overrides: { "server.rest.extensions": "true" } }).then(
    () => assert.unreachable("startup should fail"),
    (error: Error) => {
      assert.match(error.message, /REST extension 'index#GreedyExtension' cannot register GET \/info/);
      assert.match(error.message, /belongs to built-in 'dist\/plugins\/info#InfoPlugin'/);
    },
  );
});

extensions.run();
