import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { FIXTURES, http, startSluice, type RunningSluice } from "../../helpers/sluice";
import { EXAMPLES_PACKAGE } from "../../helpers/streams";
import { request } from "../../helpers/tls-client";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * Basic authentication and roles over every route family (built-in, query, event stream, REST extension):
 * exact 401/403/200 answers with their JSON bodies, the public health path, the audit and failed-login log
 * lines, OPTIONS, CORS and the security headers.
 */
const test = suite<{ sluice: RunningSluice; logged: string[]; dir: string }>("authorization by role");

const USERS = { vera: "viewer", otto: "operator", ada: "admin" } as const;
const PASSWORD = "correct horse battery";
const basic = (user: string, password = PASSWORD) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` });

test.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-auth-"));
  const users = await writeUsersFile(context.dir, PASSWORD, USERS);
  context.logged = [];
  context.sluice = await startSluice({
    root: path.join(FIXTURES, "extension-app"),
    logSink: (line) => context.logged.push(line),
    overrides: {
      "log.level": "info",
      "plugins.packages": EXAMPLES_PACKAGE,
      "server.rest.extensions": "true",
      "server.auth.mechanism": "basic",
      "server.auth.users.file": users,
      "server.auth.failure.delay.ms": "0",
      "server.cors.origins": "https://console.example",
    },
  });
  await eventually(async () => (await http(`${context.sluice.url}/api/v1/streams/wordcount`, { headers: basic("vera") })).json().state?.state === "RUNNING", {
    timeoutMs: 20_000,
    what: "wordcount to run",
  });
});
test.after(async ({ sluice, dir }) => {
  await sluice?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const QUERY = JSON.stringify({ type: "key_value", query: { all: {} } });
interface Route {
  method: string;
  path: string;
  body?: string;
  role: string;
  ok: number;
}

/** One route of each family: what it needs, and what a permitted call answers. */
const ROUTES: Route[] = [
  { method: "GET", path: "/api/v1", role: "viewer", ok: 200 },
  { method: "GET", path: "/info", role: "viewer", ok: 200 },
  { method: "GET", path: "/api/v1/streams", role: "viewer", ok: 200 },
  { method: "GET", path: "/api/v1/streams/wordcount/config", role: "viewer", ok: 200 },
  { method: "GET", path: "/api/v1/streams/wordcount/metrics", role: "viewer", ok: 200 },
  { method: "GET", path: "/metrics", role: "viewer", ok: 200 },
  { method: "GET", path: "/api/v1/log/level", role: "viewer", ok: 200 },
  { method: "PUT", path: "/api/v1/log/level", body: '{"level":"info"}', role: "admin", ok: 200 },
  { method: "GET", path: "/api/v1/applications", role: "viewer", ok: 200 },
  { method: "GET", path: "/api/v1/applications/wordcount/topology", role: "viewer", ok: 200 },
  { method: "POST", path: "/api/v1/applications/wordcount/stores/counts", body: QUERY, role: "viewer", ok: 200 },
  { method: "GET", path: "/hello/world", role: "viewer", ok: 200 },
  { method: "POST", path: "/hello-echo", body: "{}", role: "operator", ok: 200 },
  { method: "POST", path: "/hello-admin", role: "admin", ok: 200 },
  { method: "POST", path: "/api/v1/streams/nope/restart", role: "operator", ok: 404 },
  { method: "DELETE", path: "/api/v1/streams/nope/stop", role: "operator", ok: 404 },
  { method: "GET", path: "/api/v1/topologies", role: "viewer", ok: 200 },
  { method: "POST", path: "/api/v1/streams", body: '{"topology": "NoSuch", "config": {"application.id": "x"}}', role: "operator", ok: 400 },
  { method: "POST", path: "/api/v1/streams/nope/pause", role: "operator", ok: 404 },
  { method: "POST", path: "/api/v1/streams/nope/resume", role: "operator", ok: 404 },
  { method: "DELETE", path: "/api/v1/streams/nope", role: "operator", ok: 404 },
];

const call = (sluice: RunningSluice, route: Route, headers: Record<string, string> = {}) =>
  http(`${sluice.url}${route.path}`, { method: route.method, headers: { ...headers, ...(route.body ? { "Content-Type": "application/json" } : {}) }, body: route.body });

// Plain node:http requests: fetch() sends Sec-Fetch-Mode: cors, as a browser script does.
test("without credentials every route is 401 with a JSON body and a Basic challenge", async ({ sluice }) => {
  for (const route of [...ROUTES, { method: "GET", path: "/no/such/route", role: "viewer", ok: 404 }]) {
    const res = await request(`${sluice.url}${route.path}`, { method: route.method, body: route.body });
    assert.is(res.status, 401, route.path);
    assert.equal(res.json(), { error_code: 401, message: "Authentication required: Basic credentials required", path: route.path });
    assert.is(res.headers["www-authenticate"], 'Basic realm="sluice"');
  }
});

test("a script's request (X-Requested-With or Sec-Fetch-Mode: cors) gets a challenge no browser answers with its dialog", async ({ sluice }) => {
  for (const headers of [{ "X-Requested-With": "XMLHttpRequest" }, { "Sec-Fetch-Mode": "cors" }] as Record<string, string>[]) {
    const res = await request(`${sluice.url}/api/v1/streams`, { headers });
    assert.is(res.status, 401);
    assert.is(res.headers["www-authenticate"], 'SluiceBasic realm="sluice"');
  }
});

test("wrong passwords and unknown users are 401, logged without the password", async ({ sluice, logged }) => {
  for (const headers of [basic("vera", "wrong password"), basic("mallory")]) {
    const res = await http(`${sluice.url}/api/v1/streams`, { headers });
    assert.is(res.status, 401);
    assert.match(res.json().message, /^Authentication required: wrong user name or password/);
  }
  const failures = logged.filter((line) => line.includes('"authentication failed"'));
  assert.ok(failures.length >= 2);
  assert.not.ok(logged.some((line) => line.includes("wrong password") || line.includes(PASSWORD)));
});

test("each role gets exactly the routes its rank allows, and a 403 naming the role needed for the others", async ({ sluice }) => {
  for (const [user, role] of Object.entries(USERS)) {
    for (const route of ROUTES) {
      const res = await call(sluice, route, basic(user));
      const allowed = role === "admin" || role === route.role || (role === "operator" && route.role === "viewer");
      if (allowed) {
        assert.is(res.status, route.ok, `${user} ${route.method} ${route.path}: ${res.text}`);
      } else {
        assert.is(res.status, 403, `${user} ${route.method} ${route.path}`);
        assert.equal(res.json(), {
          error_code: 403,
          message: `${route.method} ${route.path} needs role '${route.role}'; '${user}' has role '${role}'`,
          path: route.path,
        });
      }
    }
  }
});

test("an extension's route sees the principal of the request", async ({ sluice }) => {
  const res = await http(`${sluice.url}/hello-whoami`, { headers: basic("otto") });
  assert.equal(res.json(), { name: "otto", role: "operator", mechanism: "basic" });
});

test("failed logins from one address are slowed, more with each failure", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-throttle-"));
  const users = await writeUsersFile(dir, PASSWORD, { vera: "viewer" });
  const slowed = await startSluice({ overrides: { "server.auth.mechanism": "basic", "server.auth.users.file": users, "server.auth.failure.delay.ms": "150" } });
  try {
    const waits: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const sent = performance.now();
      assert.is((await http(`${slowed.url}/api/v1`, { headers: basic("vera", "guess") })).status, 401);
      waits.push(performance.now() - sent);
    }
    // At least the delays: 150, 300 and 600 ms.
    assert.ok(waits[0] >= 150 && waits[1] >= 300 && waits[2] >= 600, waits.join(", "));
    assert.is((await http(`${slowed.url}/api/v1`)).status, 401, "a request without credentials is not a failed login");
  } finally {
    await slowed.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("an extension cannot make its route public with a role that is not one", async () => {
  const careless = { register: ({ routes }: any) => routes.get("/open-door", () => ({ open: true }), { role: "public" }) };
  try {
    await startSluice({ overrides: { "server.rest.extensions": "true" }, services: { "sluice.rest.RestExtension": [careless] } });
    assert.unreachable("startup should fail");
  } catch (error) {
    assert.match((error as Error).message, "cannot register GET /open-door with role 'public': roles are viewer, operator, admin");
  }
});

test("a viewer subscribes to an event stream; without credentials the subscription is 401", async ({ sluice }) => {
  const url = `${sluice.url}/api/v1/streams/wordcount/subscribe/word-counts`;
  assert.is((await http(url)).status, 401);
  const aborted = new AbortController();
  const res = await fetch(url, { headers: basic("vera"), signal: aborted.signal });
  assert.is(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  aborted.abort();
});

test("an operator restarts an application: 200, and an audit line names who did what with which outcome", async ({ sluice, logged }) => {
  const res = await http(`${sluice.url}/api/v1/streams/wordcount/restart`, { method: "POST", headers: basic("otto") });
  assert.is(res.status, 200, res.text);
  await http(`${sluice.url}/api/v1/streams/wordcount/restart`, { method: "POST", headers: basic("vera") });
  const audit = logged.map((line) => JSON.parse(line)).filter((line) => line.component === "audit" && line.msg === "operation" && line.path === "/api/v1/streams/wordcount/restart");
  assert.equal(
    audit.map(({ principal, mechanism, method, application, status }) => ({ principal, mechanism, method, application, status })),
    [
      { principal: "otto", mechanism: "basic", method: "POST", application: "wordcount", status: 200 },
      { principal: "vera", mechanism: "basic", method: "POST", application: "wordcount", status: 403 },
    ],
  );
});

test("the health path is public, /healthz is not", async ({ sluice }) => {
  assert.ok([200, 503].includes((await http(`${sluice.url}/health`)).status));
  assert.is((await http(`${sluice.url}/healthz`)).status, 401);
});

test("malformed Authorization headers, bad base64 and huge credentials are 401, never 5xx", async ({ sluice }) => {
  const headers = [
    "Basic",
    "Basic ",
    "Basic !!!!",
    "Basic ====",
    `Basic ${Buffer.from("no-colon").toString("base64")}`,
    `Basic ${Buffer.from(":no-user").toString("base64")}`,
    `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x00]).toString("base64")}`,
    `Basic ${"QUFB".repeat(3_000)}`,
    "Bearer abc.def.ghi",
    "Digest username=vera",
    "basic",
    `Basic ${Buffer.from("vera:").toString("base64")}`,
  ];
  for (const authorization of headers) {
    const res = await http(`${sluice.url}/api/v1/streams`, { headers: { Authorization: authorization } });
    assert.is(res.status, 401, authorization.slice(0, 40));
    assert.is(res.json().error_code, 401);
  }
});

test("OPTIONS answers the path's methods in Allow without credentials; an allowed origin gets its preflight", async ({ sluice }) => {
  const options = await http(`${sluice.url}/api/v1/streams/wordcount/stop`, { method: "OPTIONS" });
  assert.is(options.status, 204);
  assert.is(options.headers.get("allow"), "POST, DELETE, OPTIONS");
  assert.is(options.headers.get("access-control-allow-origin"), null);
  const preflight = await http(`${sluice.url}/api/v1/streams`, {
    method: "OPTIONS",
    headers: { Origin: "https://console.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
  });
  assert.is(preflight.status, 204);
  assert.is(preflight.headers.get("access-control-allow-origin"), "https://console.example");
  assert.is(preflight.headers.get("access-control-allow-methods"), "GET, POST, OPTIONS");
  assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /Authorization/);
  const stranger = await http(`${sluice.url}/api/v1/streams`, { method: "OPTIONS", headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "GET" } });
  assert.is(stranger.headers.get("access-control-allow-origin"), null);
  assert.is(stranger.headers.get("access-control-allow-methods"), null);
});

test("every answer carries the security headers", async ({ sluice }) => {
  for (const res of [await http(`${sluice.url}/api/v1/streams`, { headers: basic("vera") }), await http(`${sluice.url}/api/v1/streams`)]) {
    assert.is(res.headers.get("x-content-type-options"), "nosniff");
    assert.is(res.headers.get("referrer-policy"), "no-referrer");
    assert.is(res.headers.get("x-frame-options"), "DENY");
    assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
  }
});

test.run();
