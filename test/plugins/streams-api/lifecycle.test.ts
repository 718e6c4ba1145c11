import fs from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { countsOf } from "../../providers/streams/wordcount-processes";
import { streamsClient, ZONED_DATE_TIME } from "./streams-client";

interface Context {
  sluice: SluiceWithExamples;
  app: ReturnType<typeof streamsClient>;
}

const lifecycle = suite<Context>("restart and stop of wordcount");

lifecycle.before(async (context) => {
  context.sluice = await startSluiceWithExamples();
  context.app = streamsClient(context.sluice.url, "wordcount");
  await context.app.waitForState(["RUNNING"]);
});
lifecycle.after(async ({ sluice }) => sluice?.close());

const countsPartition = async (app: Context["app"]) => (await app.json("/stores")).stores.find((store: { name: string }) => store.name === "counts").partitions[0];

lifecycle("POST /restart answers a RUNNING or REBALANCING instance with a new since", async ({ app }) => {
  const before = await app.json();
  const res = await app.post("/restart");
  assert.is(res.status, 200);
  const body = res.json();
  assert.ok(["RUNNING", "REBALANCING"].includes(body.state.state), body.state.state);
  assert.match(body.since, ZONED_DATE_TIME);
  assert.is.not(body.since, before.since);
  assert.ok(Date.parse(body.since.replace(/\[.*\]$/, "")) > Date.parse(before.since.replace(/\[.*\]$/, "")));
  await app.waitForState(["RUNNING"]);
});

lifecycle("a malformed stop body is a 400 naming the problem; a non-JSON content type is a 415; nothing stops", async ({ app }) => {
  const cases: [string, RegExp][] = [
    ["{not json", /not valid JSON/],
    ['{"cleanup": "yes"}', /'cleanup' must be a boolean, got "yes"/],
    ['{"cleanup": null}', /'cleanup' must be a boolean, got null/],
    ["[true]", /must be a JSON object/],
    ['"cleanup"', /must be a JSON object/],
    ['{"cleanup": true, "force": true}', /unknown field 'force'/],
  ];
  for (const [body, message] of cases) {
    const res = await app.stop(body);
    assert.is(res.status, 400, body);
    assert.is(res.json().error_code, 400);
    assert.is(res.json().path, "/api/v1/streams/wordcount/stop");
    assert.match(res.json().message, message);
  }
  assert.is((await app.stop('{"cleanup": true}', "DELETE", "text/plain")).status, 415);
  assert.is((await app.json()).state.state, "RUNNING");
});

lifecycle("DELETE /stop answers a NOT_RUNNING instance that stays listed; stopping again changes nothing", async ({ app, sluice }) => {
  const res = await app.stop();
  assert.is(res.status, 200);
  const stopped = res.json();
  assert.is(stopped.state.state, "NOT_RUNNING");
  assert.ok((await http(`${sluice.url}/api/v1/streams`)).json().includes("wordcount"));
  assert.equal(await app.json("/offsets"), { group: "wordcount", consumers: [] });
  assert.equal((await app.json("/status")).threads, []);
  assert.is((await http(`${sluice.url}/health`)).json().applications.wordcount, "NOT_RUNNING");
  const again = await app.stop(undefined, "POST");
  assert.is(again.status, 200);
  assert.equal(again.json().state, stopped.state);
  assert.is(again.json().since, stopped.since);
});

lifecycle("stop with cleanup removes the state directory, and the store is restored from its changelog after restart", async ({ app, sluice }) => {
  assert.is((await app.post("/restart")).status, 200);
  await app.waitForState(["RUNNING"]);
  // Enough distinct words that restoring them takes a while, so /health can be seen reporting it.
  const lines = Array.from({ length: 4 }, (_, line) => ({ value: Array.from({ length: 1000 }, (_, word) => `w${line}x${word}`).join(" ") }));
  await sluice.produce("words", lines);
  await eventually(async () => Object.keys((await countsOf(sluice.url)) ?? {}).length === 4_000, { what: "every word counted", timeoutMs: 30_000 });
  const stateDir = path.join(sluice.stateDir, "wordcount");
  assert.ok(fs.existsSync(stateDir), "state directory exists while running");

  const stop = await app.stop('{"cleanup": true}');
  assert.is(stop.status, 200);
  assert.is(stop.json().state.state, "NOT_RUNNING");
  assert.not.ok(fs.existsSync(stateDir), "state directory removed");

  const restart = await app.post("/restart");
  assert.is(restart.status, 200);
  assert.ok(["RUNNING", "REBALANCING"].includes(restart.json().state.state));
  const restoring = await eventually(async () => {
    const health = (await http(`${sluice.url}/health`)).json();
    return health.not_ready.includes("wordcount") && health;
  }, { what: "/health reporting wordcount as not ready while it restores", intervalMs: 2 });
  assert.is(restoring.ready, false);
  assert.is(restoring.status, "UP");
  assert.is(restoring.components.readiness.status, "DOWN");
  assert.ok(["restoring", "REBALANCING"].includes(restoring.components.readiness.not_ready.wordcount), JSON.stringify(restoring));
  const restored = await eventually(async () => {
    const partition = await countsPartition(app);
    return !partition.restoring && partition.queryable && partition.restore.records_restored > 0 && partition;
  }, { what: "counts restored and queryable" });
  // Every word once: 4,000 changelog records, besides the fence each start writes first (see changelog-fence).
  assert.is(restored.restore.records_restored, 4_000);
  assert.is(restored.restore.records_total, restored.restore.records_restored);
  assert.ok(restored.restore.rate > 0, `a finished restoration reports its rate, got ${restored.restore.rate}`);
  // The store is current up to the fence this start wrote, the changelog's last record.
  assert.is(restored.changelog_position, restored.log_end_offset - 1);
  assert.ok(fs.existsSync(stateDir), "state directory recreated");
  assert.is(Number(await app.metricValue("stream-state-metrics", "restore-total")), restored.restore.records_restored);
  assert.is((await http(`${sluice.url}/health`)).json().ready, true);
  const readiness = await eventually(async () => {
    const probe = await http(`${sluice.url}/health/readiness`);
    return probe.status === 200 && probe;
  }, { what: "readiness once every application runs and no store restores" });
  assert.equal(readiness.json(), { status: "UP", not_ready: {} });
});

lifecycle.run();
