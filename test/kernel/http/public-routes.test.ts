import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { PLUGIN_CONTRACT, type Plugin } from "../../../kernel/contracts/plugin";
import { REST_EXTENSION_CONTRACT, type RestExtension } from "../../../kernel/contracts/rest-extension";
import type { RouteRegistrar } from "../../../kernel/http/route-registry";
import { http, startSluice, type RunningSluice } from "../../helpers/sluice";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * Public routes (RouteOptions.public): a built-in plugin serves static files to anyone for GET and HEAD while
 * authentication is on; every other method, path and owner stays behind the checks.
 */
const test = suite<{ dir: string; users: string }>("public routes of built-in plugins");

const plugin = (register: (routes: RouteRegistrar) => void): Plugin => ({ configure: ({ routes }) => register(routes) });

test.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-public-"));
  context.users = await writeUsersFile(context.dir, "secret", { vera: "viewer" });
});
test.after(({ dir }) => fs.rmSync(dir, { recursive: true, force: true }));

const startWith = (users: string, services: Record<string, unknown[]>, overrides: Record<string, string> = {}) =>
  startSluice({ services, overrides: { "server.auth.mechanism": "basic", "server.auth.users.file": users, "server.auth.failure.delay.ms": "0", ...overrides } });

test("GET and HEAD of a public route and of the paths under a /* route need no credentials; other methods and paths do", async ({ users }) => {
  const sluice: RunningSluice = await startWith(users, {
    [PLUGIN_CONTRACT]: [
      plugin((routes) => {
        routes.get("/files", () => ({ file: "index" }), { public: true });
        routes.get("/files/*", (req) => ({ file: req.path }), { public: true });
        routes.post("/files/upload", () => ({ uploaded: true }));
        routes.get("/filesystem", () => ({ secret: true }));
      }),
    ],
  });
  try {
    assert.equal((await http(`${sluice.url}/files`)).json(), { file: "index" });
    assert.equal((await http(`${sluice.url}/files/a/b.js`)).json(), { file: "/files/a/b.js" });
    assert.is((await http(`${sluice.url}/files/a/b.js`, { method: "HEAD" })).status, 200);
    assert.is((await http(`${sluice.url}/files/upload`, { method: "POST" })).status, 401);
    assert.is((await http(`${sluice.url}/filesystem`)).status, 401);
    assert.is((await http(`${sluice.url}/api/v1`)).status, 401);
  } finally {
    await sluice.close();
  }
});

test("a REST extension's route, a POST route or a parameter route cannot be public: startup stops naming it", async ({ users }) => {
  const extension: RestExtension = { register: ({ routes }) => routes.get("/open/*", () => ({}), { public: true }) };
  const cases: [Record<string, unknown[]>, RegExp][] = [
    [{ [REST_EXTENSION_CONTRACT]: [extension] }, /REST extension '.*' cannot register GET \/open\/\* as public/],
    [{ [PLUGIN_CONTRACT]: [plugin((routes) => routes.post("/open", () => ({}), { public: true }))] }, /built-in '.*' cannot register POST \/open as public/],
    [{ [PLUGIN_CONTRACT]: [plugin((routes) => routes.get("/open/:name", () => ({}), { public: true }))] }, /cannot register GET \/open\/:name as public/],
  ];
  for (const [services, expected] of cases) {
    await startWith(users, services, { "server.rest.extensions": "true" }).then(
      async (sluice) => {
        await sluice.close();
        assert.unreachable("startup should fail");
      },
      (error: Error) => assert.match(error.message, expected),
    );
  }
});

test.run();
