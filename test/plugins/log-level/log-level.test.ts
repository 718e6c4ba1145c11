import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http, startSluice, type RunningSluice } from "../../helpers/sluice";

/* GET and PUT /api/v1/log/level: the level of a running Sluice, changed without a restart; bad bodies are 400s. */
const test = suite<{ sluice: RunningSluice; logged: string[] }>("log level at run time");

test.before(async (context) => {
  context.logged = [];
  context.sluice = await startSluice({ overrides: { "log.level": "info" }, logSink: (line) => context.logged.push(line) });
});
test.after(async ({ sluice }) => sluice?.close());

const put = (sluice: RunningSluice, body: string, contentType = "application/json") =>
  http(`${sluice.url}/api/v1/log/level`, { method: "PUT", headers: { "Content-Type": contentType }, body });
const requestLines = (logged: string[]) => logged.map((line) => JSON.parse(line)).filter((line) => line.msg === "request" && line.path === "/info");

test("GET answers the configured level", async ({ sluice }) => {
  const res = await http(`${sluice.url}/api/v1/log/level`);
  assert.is(res.status, 200);
  assert.equal(res.json(), { level: "info" });
});

test("PUT debug makes the debug lines of every component appear at once, PUT info silences them again", async ({ sluice, logged }) => {
  await http(`${sluice.url}/info`);
  assert.is(requestLines(logged).length, 0, "no request lines at info");

  const res = await put(sluice, JSON.stringify({ level: "debug" }));
  assert.is(res.status, 200);
  assert.equal(res.json(), { level: "debug" });
  assert.equal((await http(`${sluice.url}/api/v1/log/level`)).json(), { level: "debug" });
  const changed = logged.map((line) => JSON.parse(line)).find((line) => line.msg === "log level changed");
  assert.equal({ level: changed?.level, previous: changed?.previous }, { level: "debug", previous: "info" });

  await http(`${sluice.url}/info`);
  await eventually(() => requestLines(logged).length === 1, { what: "the request line of GET /info at debug" });

  assert.is((await put(sluice, JSON.stringify({ level: "info" }))).status, 200);
  await http(`${sluice.url}/info`);
  // Answered after the GET /info before it has finished (and would have logged).
  await http(`${sluice.url}/api/v1/log/level`);
  assert.is(requestLines(logged).length, 1);
});

test("a body that is not {\"level\": <level>} is a 400 naming the field, and the level stays", async ({ sluice }) => {
  const cases: [string, string, string?][] = [
    ['{"level":"verbose"}', `Field 'level' must be one of debug, info, warn, error, silent, got "verbose"`],
    ['{"level":3}', "Field 'level' must be one of debug, info, warn, error, silent, got 3"],
    ["{}", "Field 'level' is required"],
    ['{"level":"debug","for":"5m"}', "Request body has an unknown field 'for'; expected level"],
    ['["debug"]', "Request body must be a JSON object, got an array"],
    ["", `Request body is required: the new level, as {"level": "debug"}`],
  ];
  for (const [body, message] of cases) {
    const res = await put(sluice, body);
    assert.is(res.status, 400, body);
    assert.equal(res.json(), { error_code: 400, message, path: "/api/v1/log/level" }, body);
  }
  assert.is((await put(sluice, "level=debug", "text/plain")).status, 415);
  assert.equal((await http(`${sluice.url}/api/v1/log/level`)).json(), { level: "info" });
});

test("PUT warn, error or silent is a 400: audit lines and failed logins stay written; each change is an audit line", async ({ sluice, logged }) => {
  for (const level of ["warn", "error", "silent"]) {
    const res = await put(sluice, JSON.stringify({ level }));
    assert.is(res.status, 400, level);
    assert.is(res.json().message, `Field 'level' must be one of debug, info: at '${level}' the audit lines (info) and failed logins (warn) would not be written`);
  }
  assert.equal((await http(`${sluice.url}/api/v1/log/level`)).json(), { level: "info" });
  assert.is((await put(sluice, JSON.stringify({ level: "info" }))).status, 200);
  const audit = logged.map((line) => JSON.parse(line)).filter((line) => line.component === "audit" && line.path === "/api/v1/log/level");
  assert.ok(audit.some((line) => line.msg === "operation requested" && line.body?.level === "info" && line.source === "127.0.0.1"));
  assert.equal(audit.filter((line) => line.msg === "operation").map((line) => line.status).slice(-4), [400, 400, 400, 200]);
});

test.run();
