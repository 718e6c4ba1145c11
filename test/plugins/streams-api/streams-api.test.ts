import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { promtoolCheck } from "../metrics-prometheus/promtool";
import { streamsClient, ZONED_DATE_TIME } from "./streams-client";

interface Context {
  sluice: SluiceWithExamples;
  app: ReturnType<typeof streamsClient>;
}

const streams = suite<Context>("GET /api/v1/streams endpoints on a running wordcount");

/** Keys no declaration knows, hidden by their names alone (a rule, not a list). */
const KEYS_NAMED_AS_SECRETS = {
  "streams.consumer.ssl.keystore.key": "pem-private-key",
  "streams.producer.ssl.truststore.certificates": "pem-certificates",
  "streams.admin.basic.auth.user.info": "user:registry-password",
  "streams.consumer.schema.registry.api.key": "registry-api-key",
  "streams.producer.sasl.oauthbearer.client.secret": "client-secret",
  "streams.admin.custom.refresh.token.value": "refresh-token",
};

streams.before(async (context) => {
  context.sluice = await startSluiceWithExamples({ "streams.consumer.sasl.password": "hunter2", ...KEYS_NAMED_AS_SECRETS });
  context.app = streamsClient(context.sluice.url, "wordcount");
  await context.app.waitForState(["RUNNING"]);
  await context.sluice.produce("words", [{ value: "kafka streams kafka" }]);
  await eventually(async () => (await context.app.metricValue("stream-thread-metrics", "process-total")) !== "0", { what: "a processed record" });
});
streams.after(async ({ sluice }) => sluice?.close());

const sorted = (values: string[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const isInteger = (value: unknown) => typeof value === "number" && Number.isInteger(value);

streams("GET /api/v1/streams lists the running applications, sorted", async ({ sluice }) => {
  const res = await http(`${sluice.url}/api/v1/streams`);
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(res.json(), ["latest", "pageviews", "sessions", "wordcount"]);
});

streams("GET /{id} describes the instance", async ({ app }) => {
  const body = await app.json();
  assert.equal(Object.keys(body).sort(), ["config", "description", "id", "name", "since", "state", "version"]);
  assert.is(body.id, "wordcount");
  assert.is(body.name, "WordCount");
  assert.is(body.version, "1.0.0");
  assert.type(body.description, "string");
  assert.match(body.since, ZONED_DATE_TIME);
  assert.equal(Object.keys(body.state).sort(), ["since", "state"]);
  assert.is(body.state.state, "RUNNING");
  assert.match(body.state.since, ZONED_DATE_TIME);
  assert.ok(Date.parse(body.state.since.replace(/\[.*\]$/, "")) >= Date.parse(body.since.replace(/\[.*\]$/, "")));
  assert.is(body.config["application.id"], "wordcount");
});

streams("GET /{id}/status gives the thread with its active tasks and clients", async ({ app }) => {
  const body = await app.json("/status");
  assert.is(body.id, "wordcount");
  assert.is(body.state, "RUNNING");
  assert.is(body.threads.length, 1);
  const [thread] = body.threads;
  assert.is(thread.name, "wordcount-StreamThread-1");
  assert.is(thread.state, "RUNNING");
  assert.equal(thread.standby_tasks, []);
  assert.ok(thread.active_tasks.every((task: { task_id: string }) => /^\d+_\d+$/.test(task.task_id)));
  const topicPartitions = thread.active_tasks.flatMap((task: { topic_partitions: unknown[] }) => task.topic_partitions);
  assert.ok(topicPartitions.some((tp: { topic: string; partition: number }) => tp.topic === "words" && tp.partition === 0));
  assert.type(thread.clients.consumer_client_id, "string");
  assert.type(thread.clients.admin_client_id, "string");
  assert.ok(Array.isArray(thread.clients.producer_client_ids) && thread.clients.producer_client_ids.length === 1);
});

streams("GET /{id}/config is a sorted flat map with the server, brokers and state dir, secrets hidden", async ({ app, sluice }) => {
  const config = await app.json("/config");
  assert.equal(Object.keys(config), sorted(Object.keys(config)));
  assert.is(config["application.id"], "wordcount");
  assert.is(config["application.server"], sluice.kernel.serverAddress());
  assert.is(config["bootstrap.servers"], sluice.brokers.join(","));
  assert.is(config["state.dir"], sluice.stateDir);
  assert.is(config["stats.enable"], false);
  assert.type(config["log.maxFileSize"], "number");
  assert.is(config["leveldb.config.setter"], "");
  for (const [key, value] of Object.entries(config)) {
    assert.ok(["string", "number", "boolean"].includes(typeof value), `${key} is ${typeof value}`);
    if (/password$/.test(key)) assert.is(value, "[hidden]", key);
  }
  assert.is(config["consumer.sasl.password"], "[hidden]");
  assert.not.ok(JSON.stringify(config).includes("hunter2"));
  for (const [key, value] of Object.entries(KEYS_NAMED_AS_SECRETS)) {
    assert.is(config[key.replace(/^streams\./, "")], "[hidden]", key);
    assert.not.ok(JSON.stringify(config).includes(value), value);
  }
});

streams("GET /{id}/offsets moves as records are produced and consumed", async ({ app, sluice }) => {
  const wordsPosition = async () => {
    const body = await app.json("/offsets");
    assert.is(body.group, "wordcount");
    assert.is(body.consumers.length, 1);
    assert.type(body.consumers[0].client_id, "string");
    assert.is(body.consumers[0].stream_thread, "wordcount-StreamThread-1");
    for (const position of body.consumers[0].positions) {
      assert.equal(Object.keys(position), [
        "topic", "partition", "consumed_offset", "consumed_timestamp", "committed_offset", "committed_timestamp",
        "log_end_offset", "log_start_offset", "lag",
      ]);
      for (const [field, value] of Object.entries(position)) if (field !== "topic") assert.ok(isInteger(value), `${field} is an integer`);
      assert.is(position.lag, Math.max(position.log_end_offset - (position.consumed_offset + 1), 0));
    }
    return body.consumers[0].positions.find((position: { topic: string }) => position.topic === "words");
  };
  const before = await eventually(async () => {
    const position = await wordsPosition();
    return position?.committed_offset === position?.log_end_offset && position;
  }, { what: "the words partition committed" });
  assert.is(before.log_start_offset, 0);
  await sluice.produce("words", [{ value: "one" }, { value: "two" }]);
  const after = await eventually(async () => {
    const position = await wordsPosition();
    return position.consumed_offset === before.consumed_offset + 2 && position.committed_offset === position.log_end_offset && position;
  }, { what: "the two new records consumed and committed" });
  assert.is(after.log_end_offset, before.log_end_offset + 2);
  assert.is(after.lag, 0);
  assert.ok(after.consumed_timestamp >= before.consumed_timestamp);
  assert.ok(after.committed_timestamp >= before.committed_timestamp);
});

streams("GET /{id}/topology gives sub-topologies by id and nodes by name, with topics, stores and sink topic", async ({ app, sluice }) => {
  const res = await app.get("/topology");
  assert.is(res.text, (await http(`${sluice.url}/api/v1/applications/wordcount/topology`)).text, "same body as /api/v1/applications/{id}/topology");
  const body = res.json();
  assert.is(body.version, "1.0.0");
  assert.equal(body.global_stores, []);
  assert.equal(body.sub_topologies.map((sub: { id: number }) => sub.id), [0, 1]);
  const nodes = body.sub_topologies.flatMap((sub: { nodes: { name: string }[] }) => {
    assert.equal(sub.nodes.map((node) => node.name), sorted(sub.nodes.map((node) => node.name)));
    return sub.nodes;
  });
  assert.ok(nodes.some((node: any) => node.type === "SOURCE" && node.topics?.includes("words")));
  assert.ok(nodes.some((node: any) => node.type === "PROCESSOR" && node.stores?.includes("counts")));
  assert.ok(nodes.some((node: any) => node.type === "SINK" && node.topic === "word-counts"));
  for (const node of nodes) {
    assert.ok(Array.isArray(node.predecessors) && Array.isArray(node.successors));
  }
});

streams("GET /{id}/subscriptions lists the event stream types", async ({ app }) => {
  assert.equal(await app.json("/subscriptions"), ["word-counts"]);
});

streams("GET /{id}/stores gives per store and partition the changelog position, lag, readiness and restore progress", async ({ app, sluice }) => {
  const counts = async () => (await app.json("/stores")).stores.find((store: { name: string }) => store.name === "counts");
  const before = await counts();
  assert.is(before.type, "timestamped_key_value");
  assert.is(before.partitions.length, 1);
  const [partition] = before.partitions;
  assert.equal(Object.keys(partition), ["partition", "changelog_topic", "changelog_position", "log_end_offset", "lag", "queryable", "restoring", "standby", "restore"]);
  assert.is(partition.partition, 0);
  assert.is(partition.changelog_topic, "wordcount-counts-changelog");
  assert.is(partition.queryable, true);
  assert.is(partition.restoring, false);
  assert.is(partition.standby, false);
  assert.equal(Object.keys(partition.restore), ["records_restored", "records_total", "rate"]);
  assert.ok(isInteger(partition.restore.records_restored));
  await sluice.produce("words", [{ value: "brand new words" }]);
  const after = await eventually(async () => {
    const [moved] = (await counts()).partitions;
    return moved.changelog_position >= partition.changelog_position + 3 && moved.lag === 0 && moved;
  }, { what: "the counts changelog moving by three words" });
  assert.is(after.log_end_offset, after.changelog_position + 1);
});

streams("GET /{id}/metrics gives the required groups, sorted, with typed metrics", async ({ app }) => {
  const res = await app.get("/metrics");
  assert.is(res.headers.get("content-type"), "application/json; charset=utf-8");
  const groups = res.json();
  const names = groups.map((group: { name: string }) => group.name);
  assert.equal(names, sorted(names));
  for (const required of ["app-info", "consumer-fetch-manager-metrics", "producer-metrics", "stream-state-metrics", "stream-task-metrics", "stream-thread-metrics"]) {
    assert.ok(names.includes(required), required);
  }
  for (const group of groups) {
    const keys = group.metrics.map((metric: any) => `${metric.name}\u0000${JSON.stringify(Object.entries(metric.tags).sort())}`);
    assert.equal(keys, sorted(keys), `metrics of ${group.name} sorted by name then tags`);
    for (const metric of group.metrics) {
      assert.equal(Object.keys(metric), ["name", "description", "tags", "value"]);
      assert.ok(typeof metric.value === "number" || typeof metric.value === "string" || metric.value === null);
    }
  }
  const thread = groups.find((group: { name: string }) => group.name === "stream-thread-metrics");
  for (const name of ["process-rate", "process-total", "poll-rate", "commit-rate", "commit-total", "commit-latency-avg", "commit-latency-max"]) {
    assert.ok(thread.metrics.some((metric: { name: string }) => metric.name === name), name);
  }
  const state = groups.find((group: { name: string }) => group.name === "stream-state-metrics");
  assert.ok(state.metrics.every((metric: { tags: Record<string, string> }) => metric.tags["store-name"] !== undefined));
});

streams("filter_empty leaves out metrics valued 0, null, NaN or empty, and groups left empty", async ({ app }) => {
  const all = (await app.json("/metrics")) as { name: string; metrics: { value: unknown }[] }[];
  const isEmpty = (value: unknown) => value === 0 || value === null || value === "";
  assert.ok(all.some((group) => group.metrics.some((metric) => isEmpty(metric.value))), "some metric is empty without the filter");
  for (const query of ["?filter_empty", "?filter_empty=false"]) {
    const filtered = (await app.json(`/metrics${query}`)) as typeof all;
    assert.ok(filtered.every((group) => group.metrics.length > 0 && group.metrics.every((metric) => !isEmpty(metric.value))), query);
    assert.ok(filtered.some((group) => group.name === "app-info"));
  }
});

streams("GET /{id}/metrics/group/{group} holds only that group; /name/{name} only that name", async ({ app }) => {
  const group = await app.json("/metrics/group/stream-task-metrics");
  assert.equal(group.map((g: { name: string }) => g.name), ["stream-task-metrics"]);
  const named = await app.json("/metrics/group/stream-task-metrics/name/process-rate");
  assert.is(named.length, 1);
  assert.ok(named[0].metrics.length >= 1);
  assert.ok(named[0].metrics.every((metric: { name: string; tags: Record<string, string> }) => metric.name === "process-rate" && metric.tags["task-id"]));
});

streams("the value endpoint answers the first matching metric as text, numbers without trailing zeros", async ({ app, sluice }) => {
  const res = await app.get("/metrics/group/stream-thread-metrics/name/process-total/value");
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.match(res.text, /^[1-9]\d*$/);
  const [group] = await app.json("/metrics/group/stream-thread-metrics/name/process-total");
  assert.is(Number(res.text), group.metrics[0].value);
  await sluice.produce("words", [{ value: "more" }]);
  await eventually(async () => Number(await app.metricValue("stream-thread-metrics", "process-total")) > Number(res.text), { what: "process-total growing" });
  assert.match(await app.metricValue("stream-thread-metrics", "process-rate"), /^(0|[1-9]\d*)(\.\d*[1-9])?(e[+-]\d+)?$/);
  assert.is(await app.metricValue("app-info", "version"), "1.0.0");
});

streams("format=prometheus answers the text format, passing promtool check metrics", async ({ app }) => {
  const res = await app.get("/metrics?format=prometheus");
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  assert.match(res.text, /^# TYPE streams_process_total counter$/m);
  assert.match(res.text, /^streams_process_total\{application_id="wordcount",group="stream-thread-metrics",thread_id="wordcount-StreamThread-1"\} [1-9]\d*$/m);
  assert.match(res.text, /^streams_version_info\{application_id="wordcount",group="app-info",client_id="wordcount",value="1\.0\.0"\} 1$/m);
  const check = promtoolCheck(res.text);
  assert.ok(check.ok, check.output);
  const group = await app.get("/metrics/group/producer-metrics/name/record-send-total?format=prometheus&filter_empty");
  assert.equal(group.text.trimEnd().split("\n").map((line) => line.split("{")[0]), [
    "# HELP streams_record_send_total Total records sent",
    "# TYPE streams_record_send_total counter",
    "streams_record_send_total",
  ]);
  assert.ok(promtoolCheck(group.text).ok);
});

streams("format=json is the default; an unknown format is a 400 naming the known ones", async ({ app }) => {
  const json = await app.get("/metrics/group/app-info?format=json");
  assert.is(json.status, 200);
  assert.equal(json.json()[0].name, "app-info");
  const res = await app.get("/metrics?format=xml");
  assert.is(res.status, 400);
  assert.equal(res.json(), {
    error_code: 400,
    message: "Query parameter 'format' must be one of json, prometheus, got 'xml'",
    path: "/api/v1/streams/wordcount/metrics",
  });
  assert.is((await app.get("/metrics/group/app-info?format=json&format=prometheus")).status, 400);
});

streams("an unknown group or metric is a 404", async ({ app }) => {
  for (const path of ["/metrics/group/nope", "/metrics/group/nope/name/process-rate", "/metrics/group/stream-thread-metrics/name/nope", "/metrics/group/stream-thread-metrics/name/nope/value"]) {
    const res = await app.get(path);
    assert.is(res.status, 404, path);
    assert.is(res.json().error_code, 404);
    assert.is(res.json().path, `/api/v1/streams/wordcount${path}`);
    assert.match(res.json().message, /nope/);
  }
});

streams("an unknown application is a 404 on every endpoint", async ({ sluice }) => {
  const unknown = streamsClient(sluice.url, "no%20such");
  const paths = ["", "/status", "/config", "/offsets", "/topology", "/subscriptions", "/stores", "/metrics", "/metrics/group/app-info", "/metrics/group/app-info/name/version", "/metrics/group/app-info/name/version/value"];
  for (const path of paths) {
    const res = await unknown.get(path);
    assert.is(res.status, 404, path);
    assert.equal(res.json(), { error_code: 404, message: "Unknown application 'no such'", path: `/api/v1/streams/no%20such${path}` });
  }
  assert.is((await unknown.post("/restart")).status, 404);
  assert.is((await unknown.stop()).status, 404);
});

streams("/health reports the running applications as ready", async ({ sluice }) => {
  const body = (await http(`${sluice.url}/health`)).json();
  assert.is(body.status, "UP");
  assert.is(body.ready, true);
  assert.is(body.applications.wordcount, "RUNNING");
});

streams.run();
