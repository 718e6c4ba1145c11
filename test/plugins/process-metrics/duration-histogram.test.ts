import { test } from "uvu";
import * as assert from "uvu/assert";
import { Histogram, Registry } from "prom-client";
import { DurationHistogram } from "../../../plugins/process-metrics/duration-histogram";

const BOUNDS = [0.001, 0.01, 0.1];
// On a bound, between bounds, below the first and above the last.
const OBSERVED: [string, string, number][] = [
  ["GET", "200", 0.001],
  ["GET", "200", 0.0005],
  ["GET", "200", 0.05],
  ["GET", "200", 0.1],
  ["GET", "200", 3],
  ["POST", "400", 0.01],
];

test("a duration histogram prints what prom-client's histogram prints for the same observations", async () => {
  const ours = new Registry();
  const histogram = new DurationHistogram("request_seconds", "Request time", BOUNDS, ours);
  const series = new Map<string, ReturnType<DurationHistogram["newSeries"]>>();
  for (const [method, status, seconds] of OBSERVED) {
    const key = `${method} ${status}`;
    if (!series.has(key)) series.set(key, histogram.newSeries({ method, status }));
    series.get(key)!.observe(seconds);
  }
  const theirs = new Registry();
  const reference = new Histogram({ name: "request_seconds", help: "Request time", labelNames: ["method", "status"], buckets: BOUNDS, registers: [theirs] });
  for (const [method, status, seconds] of OBSERVED) reference.labels(method, status).observe(seconds);

  assert.is(await ours.metrics(), await theirs.metrics());
  assert.ok((await ours.metrics()).includes('request_seconds_bucket{le="0.001",method="GET",status="200"} 2'));
});

test("reset zeroes the series, which stay the ones exported", async () => {
  const registry = new Registry();
  const histogram = new DurationHistogram("request_seconds", "Request time", BOUNDS, registry);
  const series = histogram.newSeries({ method: "GET" });
  series.observe(0.05);
  registry.resetMetrics();
  series.observe(0.002);
  const text = await registry.metrics();
  assert.ok(text.includes('request_seconds_count{method="GET"} 1'), text);
  assert.ok(text.includes('request_seconds_bucket{le="0.001",method="GET"} 0'), text);
  assert.ok(text.includes('request_seconds_bucket{le="0.01",method="GET"} 1'), text);
});

test.run();
