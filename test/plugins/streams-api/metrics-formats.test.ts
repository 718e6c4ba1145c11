import { suite } from "uvu";
import * as assert from "uvu/assert";
import { METRICS_FORMATTER_CONTRACT, type MetricsFormatter } from "../../../kernel/contracts/metrics-formatter";
import type { ApplicationRegistry } from "../../../kernel/contracts/streams/runtime";
import { STREAMS_RUNTIME_TOKEN, type ApplicationHandle, type MetricGroup } from "../../../kernel/contracts/streams/runtime";
import { startSluice, type RunningSluice } from "../../helpers/sluice";
import { streamsClient } from "./streams-client";

/** A format given by the program, the way one more descriptor line adds one. */
const csv: MetricsFormatter = {
  format: "csv",
  contentType: "text/csv; charset=utf-8",
  render: (applicationId, groups) => groups.flatMap((group) => group.metrics.map((metric) => `${applicationId},${group.name},${metric.name},${metric.value}`)).join("\n"),
};

const metrics: MetricGroup[] = [
  {
    name: "z-group",
    metrics: [
      { name: "ratio", description: "", tags: { b: "2" }, value: 0.5 },
      { name: "ratio", description: "", tags: { a: "1" }, value: 42 },
      { name: "empty-string", description: "", tags: {}, value: "" },
      { name: "not-a-number", description: "", tags: {}, value: NaN },
      { name: "nothing", description: "", tags: {}, value: null },
      { name: "zero", description: "", tags: {}, value: 0 },
    ],
  },
  { name: "a-group", metrics: [{ name: "big", description: "", tags: {}, value: 1e21 }] },
  { name: "m-empty", metrics: [{ name: "zero", description: "", tags: {}, value: 0 }] },
];

const extremes: MetricGroup[] = [
  {
    name: "numbers",
    metrics: [
      { name: "tiny", description: "", tags: {}, value: 1e-7 },
      { name: "negative-tiny", description: "", tags: {}, value: -1.25e-7 },
      { name: "huge", description: "", tags: {}, value: 1e21 },
      { name: "negative-huge", description: "", tags: {}, value: -1.5e22 },
      { name: "fraction", description: "", tags: {}, value: -0.125 },
      { name: "infinite", description: "", tags: {}, value: Infinity },
    ],
  },
];

const application = { id: "fixed", metrics: () => metrics } as unknown as ApplicationHandle;
const numbers = { id: "numbers", metrics: () => extremes } as unknown as ApplicationHandle;
const byId = new Map([application, numbers].map((handle) => [handle.id, handle]));
const registry: ApplicationRegistry = { applications: () => [...byId.values()], application: (id) => byId.get(id) };

const formats = suite<{ sluice: RunningSluice; app: ReturnType<typeof streamsClient> }>("metrics formats and selection");

formats.before(async (context) => {
  context.sluice = await startSluice({ services: { [METRICS_FORMATTER_CONTRACT]: [csv] }, overrides: { "broker.port": "0", "broker.storage": "memory" } });
  context.sluice.kernel.components.register(STREAMS_RUNTIME_TOKEN, { useValue: registry });
  context.app = streamsClient(context.sluice.url, "fixed");
});
formats.after(async ({ sluice }) => sluice?.close());

formats("groups sort by name and metrics by name then tags", async ({ app }) => {
  const body = await app.json("/metrics");
  assert.equal(body.map((group: { name: string }) => group.name), ["a-group", "m-empty", "z-group"]);
  const zGroup = body[2].metrics.map((metric: { name: string; tags: object }) => [metric.name, metric.tags]);
  assert.equal(zGroup.map(([name]: [string]) => name), ["empty-string", "not-a-number", "nothing", "ratio", "ratio", "zero"]);
  assert.equal(zGroup.slice(3, 5), [["ratio", { a: "1" }], ["ratio", { b: "2" }]]);
  assert.is(body[2].metrics.find((metric: { name: string }) => metric.name === "not-a-number").value, null);
});

formats("filter_empty drops null, NaN, empty and zero values and the groups they empty", async ({ app }) => {
  const body = await app.json("/metrics?filter_empty");
  assert.equal(body, [
    { name: "a-group", metrics: [{ name: "big", description: "", tags: {}, value: 1e21 }] },
    { name: "z-group", metrics: [{ name: "ratio", description: "", tags: { a: "1" }, value: 42 }, { name: "ratio", description: "", tags: { b: "2" }, value: 0.5 }] },
  ]);
  assert.equal(await app.json("/metrics/group/m-empty?filter_empty"), [], "an existing group emptied by the filter is no 404");
});

formats("the value endpoint prints numbers without trailing zeros and the first matching metric", async ({ app }) => {
  assert.is(await app.metricValue("z-group", "ratio"), "42");
  assert.is(await app.metricValue("z-group", "zero"), "0");
  assert.is(await app.metricValue("z-group", "nothing"), "");
  assert.is(await app.metricValue("z-group", "not-a-number"), "NaN");
  assert.is(await app.metricValue("a-group", "big"), "1000000000000000000000");
});

formats("the value endpoint never prints exponent notation", async ({ sluice }) => {
  const values = streamsClient(sluice.url, "numbers");
  assert.is(await values.metricValue("numbers", "tiny"), "0.0000001");
  assert.is(await values.metricValue("numbers", "negative-tiny"), "-0.000000125");
  assert.is(await values.metricValue("numbers", "huge"), "1000000000000000000000");
  assert.is(await values.metricValue("numbers", "negative-huge"), "-15000000000000000000000");
  assert.is(await values.metricValue("numbers", "fraction"), "-0.125");
  assert.is(await values.metricValue("numbers", "infinite"), "Infinity");
});

formats("a named metric that filter_empty empties is a 404 like one that does not exist", async ({ app }) => {
  const emptied = await app.get("/metrics/group/z-group/name/zero?filter_empty");
  assert.is(emptied.status, 404);
  assert.match(emptied.json().message, /no metric 'zero' in group 'z-group'/);
  assert.is((await app.get("/metrics/group/z-group/name/zero?filter_empty&format=prometheus")).status, 404);
  assert.is((await app.get("/metrics/group/z-group/name/zero")).status, 200, "unfiltered it is there");
});

formats("a formatter given for another format value serves it, with its content type", async ({ app }) => {
  const res = await app.get("/metrics/group/z-group/name/ratio?format=csv");
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "text/csv; charset=utf-8");
  assert.is(res.text, "fixed,z-group,ratio,42\nfixed,z-group,ratio,0.5");
  assert.match((await app.get("/metrics?format=yaml")).json().message, /one of csv, json, prometheus/);
});

formats("two formatters for one format value stop startup, naming both", async () => {
  const twin = { ...csv };
  try {
    const sluice = await startSluice({ services: { [METRICS_FORMATTER_CONTRACT]: [csv, twin] }, overrides: { "broker.port": "0", "broker.storage": "memory" } });
    await sluice.close();
    assert.unreachable("startup should fail");
  } catch (error) {
    assert.match((error as Error).message, /#1 and .*#2|#2 and .*#1/);
    assert.match((error as Error).message, /metrics format 'csv'/);
  }
});

formats.run();
