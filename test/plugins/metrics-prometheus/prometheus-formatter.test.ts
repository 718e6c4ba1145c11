import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { MetricGroup } from "../../../kernel/contracts/streams/runtime";
import { PrometheusMetricsFormatter } from "../../../plugins/metrics-prometheus";
import { promtoolCheck } from "./promtool";

const prometheus = suite("Prometheus metrics formatter");
const formatter = new PrometheusMetricsFormatter();

const groups: MetricGroup[] = [
  {
    name: "app-info",
    metrics: [
      { name: "start-time-ms", description: "When it started", tags: { "client-id": "app" }, value: 1795884463123 },
      { name: "version", description: "Topology version", tags: { "client-id": "app" }, value: "1.0.0" },
    ],
  },
  {
    name: "stream-task-metrics",
    metrics: [
      { name: "process-rate", description: "Per task", tags: { "task-id": "0_1" }, value: 2.5 },
      { name: "dropped-records-total", description: "Dropped", tags: { "task-id": "0_1" }, value: 3 },
    ],
  },
  {
    name: "stream-thread-metrics",
    metrics: [
      { name: "process-rate", description: "Per thread", tags: { "thread-id": 'odd "name"\\with\nnewline' }, value: 7 },
      { name: "process-total", description: "Total\nprocessed \\ records", tags: { "thread-id": "t" }, value: 12 },
      { name: "poll-rate", description: "Polls", tags: { "thread-id": "t" }, value: null },
      { name: "commit-latency-avg", description: "Latency", tags: { "thread-id": "t", "1st.tag": "x" }, value: NaN },
      { name: "record-count", description: "Records in the store", tags: {}, value: 4 },
    ],
  },
];

const text = formatter.render("word count", groups);
const lines = text.trimEnd().split("\n");

prometheus("answers the Prometheus text content type for format=prometheus", () => {
  assert.is(formatter.format, "prometheus");
  assert.is(formatter.contentType, "text/plain; version=0.0.4; charset=utf-8");
});

prometheus("one HELP and one TYPE per family, samples of a family together, metrics of one name across groups in one family", () => {
  const family = lines.filter((line) => line.startsWith("# TYPE streams_process_rate "));
  assert.equal(family, ["# TYPE streams_process_rate gauge"]);
  assert.is(lines.filter((line) => line.startsWith("# HELP streams_process_rate ")).length, 1);
  const start = lines.indexOf("# TYPE streams_process_rate gauge");
  assert.ok(lines[start + 1].startsWith('streams_process_rate{application_id="word count",group="stream-task-metrics",task_id="0_1"} 2.5'));
  assert.ok(lines[start + 2].startsWith('streams_process_rate{application_id="word count",group="stream-thread-metrics",thread_id='));
});

prometheus("*-total metrics are counters, the others gauges", () => {
  assert.ok(lines.includes("# TYPE streams_process_total counter"));
  assert.ok(lines.includes("# TYPE streams_dropped_records_total counter"));
  assert.ok(lines.includes("# TYPE streams_commit_latency_avg gauge"));
});

prometheus("string values become <family>_info with a value label and 1", () => {
  assert.ok(lines.includes("# TYPE streams_version_info gauge"));
  assert.ok(lines.includes('streams_version_info{application_id="word count",group="app-info",client_id="app",value="1.0.0"} 1'));
});

prometheus("label values and help text are escaped; label names sanitized and never start with a digit", () => {
  assert.ok(text.includes('thread_id="odd \\"name\\"\\\\with\\nnewline"'));
  assert.ok(lines.includes("# HELP streams_process_total Total\\nprocessed \\\\ records"));
  assert.ok(lines.includes('streams_commit_latency_avg{application_id="word count",group="stream-thread-metrics",thread_id="t",_1st_tag="x"} NaN'));
});

prometheus("metrics without a value are left out", () => {
  assert.not.ok(text.includes("streams_poll_rate"));
});

prometheus("abbreviated units become base units with the value converted; reserved suffixes get _value", () => {
  assert.ok(lines.includes('streams_start_time_seconds{application_id="word count",group="app-info",client_id="app"} 1795884463.123'));
  assert.ok(lines.includes("# HELP streams_start_time_seconds When it started (in seconds here)"));
  assert.ok(lines.includes('streams_record_count_value{application_id="word count",group="stream-thread-metrics"} 4'));
});

prometheus("the output passes promtool check metrics", () => {
  const check = promtoolCheck(text);
  assert.ok(check.ok, check.output);
});

prometheus("several applications share one family per name, told apart by application_id, and pass promtool", () => {
  const both = formatter.renderApplications([
    { applicationId: "word count", groups },
    { applicationId: "pageviews", groups },
  ]);
  const bothLines = both.trimEnd().split("\n");
  assert.is(bothLines.filter((line) => line === "# TYPE streams_process_rate gauge").length, 1);
  assert.ok(bothLines.includes('streams_dropped_records_total{application_id="word count",group="stream-task-metrics",task_id="0_1"} 3'));
  assert.ok(bothLines.includes('streams_dropped_records_total{application_id="pageviews",group="stream-task-metrics",task_id="0_1"} 3'));
  assert.is(formatter.renderApplications([{ applicationId: "word count", groups }]), text);
  const check = promtoolCheck(both);
  assert.ok(check.ok, check.output);
});

prometheus("promtool rejects what the formatter avoids (the check can fail)", () => {
  assert.not.ok(promtoolCheck('# TYPE streams_x_ms gauge\nstreams_x_ms{a="b"} 1\n').ok);
});

prometheus.run();
