import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { sampleValue, samples } from "../../helpers/prometheus-text";
import { http, startSluice } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { promtoolCheck } from "../metrics-prometheus/promtool";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * GET /metrics on Sluice running the examples: promtool-clean, the Node.js runtime, HTTP and query durations by
 * bounded labels, event-stream subscribers, and every application's metrics; its access follows the role rules.
 */
const test = suite<{ sluice: SluiceWithExamples }>("process metrics");

test.before(async (context) => {
  context.sluice = await startSluiceWithExamples();
  for (const application of ["wordcount", "pageviews", "sessions", "latest"]) {
    await eventually(async () => (await http(`${context.sluice.url}/api/v1/streams/${application}`)).json().state?.state === "RUNNING", {
      timeoutMs: 20_000,
      what: `${application} to run`,
    });
  }
});
test.after(async ({ sluice }) => sluice?.close());

const scrape = async (sluice: SluiceWithExamples) => {
  const res = await http(`${sluice.url}/metrics`);
  assert.is(res.status, 200);
  return res.text;
};
const query = (sluice: SluiceWithExamples, application: string, store: string, body: object) =>
  http(`${sluice.url}/api/v1/applications/${application}/stores/${store}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

test("the answer is Prometheus text that passes promtool check metrics", async ({ sluice }) => {
  const res = await http(`${sluice.url}/metrics`);
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  const check = promtoolCheck(res.text);
  assert.ok(check.ok, check.output);
});

test("the Node.js runtime: event-loop lag and utilisation, heap, GC, handles, CPU", async ({ sluice }) => {
  global.gc?.();
  const text = await scrape(sluice);
  for (const family of [
    "nodejs_eventloop_lag_seconds",
    "nodejs_eventloop_lag_p99_seconds",
    "nodejs_eventloop_utilization_ratio",
    "nodejs_heap_size_used_bytes",
    "nodejs_heap_space_size_used_bytes",
    "nodejs_gc_duration_seconds",
    "nodejs_active_handles",
    "process_cpu_seconds_total",
    "process_resident_memory_bytes",
  ]) {
    assert.ok(text.includes(`# TYPE ${family} `), family);
  }
  const utilization = sampleValue(text, "nodejs_eventloop_utilization_ratio")!;
  assert.ok(utilization >= 0 && utilization <= 1, String(utilization));
  assert.ok(samples(text, "nodejs_active_handles").length > 0);
});

test("HTTP durations by method, route pattern and status; unknown paths are one label, raw paths never one", async ({ sluice }) => {
  const before = await scrape(sluice);
  const count = (text: string, labels: Record<string, string>) => sampleValue(text, "sluice_http_request_duration_seconds_count", labels) ?? 0;
  await http(`${sluice.url}/api/v1/streams/wordcount`);
  await http(`${sluice.url}/api/v1/streams/no-such-application`);
  for (let index = 0; index < 25; index++) await http(`${sluice.url}/no/such/path/${index}`);
  await http(`${sluice.url}/api/v1/streams`, { method: "PATCH" });
  const after = await scrape(sluice);
  const byRoute = (status: string, route = "/api/v1/streams/:id", method = "GET") => count(after, { method, route, status }) - count(before, { method, route, status });
  assert.is(byRoute("200"), 1);
  assert.is(byRoute("404"), 1);
  assert.is(byRoute("404", "unmatched"), 25);
  assert.is(byRoute("405", "/api/v1/streams", "PATCH"), 1);
  assert.not.ok(after.includes("no-such-application") || after.includes("/no/such/path"));
  const buckets = samples(after, "sluice_http_request_duration_seconds_bucket", { method: "GET", route: "/api/v1/streams/:id", status: "200" });
  assert.ok(buckets.some(([labels]) => labels.includes('le="+Inf"')));
});

test("interactive-query durations by store type and answer status; a refused query is none", async ({ sluice }) => {
  const count = (text: string, storeType: string) => sampleValue(text, "sluice_query_duration_seconds_count", { store_type: storeType, status: "SUCCESS" }) ?? 0;
  const before = await scrape(sluice);
  assert.is((await query(sluice, "wordcount", "counts", { type: "key_value", query: { all: {} } })).json().status, "SUCCESS");
  assert.is((await query(sluice, "wordcount", "counts", { type: "key_value", query: { get: { key: "no-such-word" } } })).json().status, "SUCCESS");
  assert.is((await query(sluice, "wordcount", "counts", { type: "key_value", query: { get: { kee: "x" } } })).status, 400);
  assert.is((await query(sluice, "sessions", "user-sessions", { type: "session", query: { fetch: { key: "nobody" } } })).json().status, "SUCCESS");
  const after = await scrape(sluice);
  assert.is(count(after, "timestamped_key_value") - count(before, "timestamped_key_value"), 2);
  assert.is(count(after, "session") - count(before, "session"), 1);
  assert.ok(after.includes("# TYPE sluice_query_duration_seconds histogram"));
});

test("event-stream subscribers are counted while connected", async ({ sluice }) => {
  const subscribers = async () => sampleValue(await scrape(sluice), "sluice_sse_subscribers", { application: "wordcount", stream: "word-counts" });
  const aborted = new AbortController();
  const res = await fetch(`${sluice.url}/api/v1/streams/wordcount/subscribe/word-counts`, { signal: aborted.signal });
  assert.is(res.status, 200);
  assert.is(await subscribers(), 1);
  aborted.abort();
  await eventually(async () => (await subscribers()) === 0, { what: "the subscriber to be gone" });
  assert.is(sampleValue(await scrape(sluice), "sluice_sse_dropped_events_total", { application: "wordcount", stream: "word-counts" }), 0);
});

test("the applications' metrics, as their prometheus format renders them, labelled by application", async ({ sluice }) => {
  const text = await scrape(sluice);
  const own = (await http(`${sluice.url}/api/v1/streams/wordcount/metrics?format=prometheus`)).text;
  const line = own.split("\n").find((candidate) => candidate.startsWith("streams_process_total{"))!;
  assert.ok(line, own);
  assert.ok(text.split("\n").some((candidate) => candidate.startsWith(line.slice(0, line.lastIndexOf(" ")))), line);
  const applications = new Set(samples(text, "streams_version_info").map(([labels]) => /application_id="([^"]+)"/.exec(labels)?.[1]));
  assert.ok(["wordcount", "pageviews", "sessions", "latest"].every((id) => applications.has(id)), [...applications].join(", "));
});

test("with authentication /metrics needs a viewer, unless server.auth.public.paths lists it", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-metrics-auth-"));
  const users = await writeUsersFile(dir, "pw of vera", { vera: "viewer" });
  const auth = { "server.auth.mechanism": "basic", "server.auth.users.file": users };
  const closed = await startSluice({ overrides: auth });
  const open = await startSluice({ overrides: { ...auth, "server.auth.public.paths": "/health,/metrics" } });
  try {
    assert.is((await http(`${closed.url}/metrics`)).status, 401);
    const basic = { Authorization: `Basic ${Buffer.from("vera:pw of vera").toString("base64")}` };
    assert.is((await http(`${closed.url}/metrics`, { headers: basic })).status, 200);
    assert.is((await http(`${open.url}/metrics`)).status, 200);
    assert.is((await http(`${open.url}/api/v1`)).status, 401);
  } finally {
    await closed.close();
    await open.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
