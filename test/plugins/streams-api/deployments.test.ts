import fs from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { countsOf, trueCounts, untilExactCounts } from "../../providers/streams/wordcount-processes";
import { openSse } from "../event-streams/sse-reader";
import { deploy, pause, resume, terminate, wordcountOn } from "./deployments-client";
import { streamsClient } from "./streams-client";

interface Context {
  sluice: SluiceWithExamples;
}

const deployments = suite<Context>("deploy, pause, resume and terminate over REST");

deployments.before(async (context) => {
  context.sluice = await startSluiceWithExamples({ "applications.pageviews.autostart": "false" });
  await streamsClient(context.sluice.url, "wordcount").waitForState(["RUNNING"]);
});
deployments.after(async ({ sluice }) => sluice?.close());

const lines = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix} line ${index % 7} and ${prefix}`);

deployments("a second wordcount deployed on its own topic counts its own input exactly, beside the first", async ({ sluice }) => {
  const res = await deploy(sluice.url, wordcountOn("wordcount-b"));
  assert.is(res.status, 201, res.text);
  assert.equal(res.json(), { id: "wordcount-b" });
  const b = streamsClient(sluice.url, "wordcount-b");
  await b.waitForState(["RUNNING"]);
  assert.equal((await http(`${sluice.url}/api/v1/streams`)).json(), ["latest", "sessions", "wordcount", "wordcount-b"]);
  assert.equal((await http(`${sluice.url}/api/v1/applications`)).json(), ["latest", "sessions", "wordcount", "wordcount-b"]);

  const description = await b.json();
  assert.is(description.name, "WordCount");
  assert.is(description.version, "1.0.0");
  assert.is(description.config["input.topic"], "wordcount-b-words");
  assert.is(description.config["commit.interval.ms"], 50);
  assert.is(description.config["application.server"], sluice.kernel.serverAddress());
  assert.equal(await b.json("/subscriptions"), ["word-counts"]);

  const events = await openSse(`${sluice.url}/api/v1/streams/wordcount-b/subscribe/word-counts`);
  const aLines = lines("alpha", 20);
  const bLines = lines("beta", 30);
  await sluice.produce("words", aLines.map((value) => ({ value })));
  await sluice.produce("wordcount-b-words", bLines.map((value) => ({ value })));
  await untilExactCounts(sluice.url, "wordcount-b", bLines);
  const aCounts = await countsOf(sluice.url, "wordcount");
  for (const [word, count] of Object.entries(trueCounts(aLines))) assert.ok(aCounts?.[word] !== undefined && aCounts[word] >= count, word);
  assert.is(aCounts?.beta, undefined, "wordcount never sees wordcount-b's input");

  const [event] = await events.waitForEvents(1);
  assert.is(event.event, "word-counts");
  events.close();
  const offsets = await b.json("/offsets");
  assert.is(offsets.group, "wordcount-b");
  assert.equal([...new Set(offsets.consumers[0].positions.map((position: { topic: string }) => position.topic))].filter((topic) => !String(topic).includes("repartition")), ["wordcount-b-words"]);
  assert.ok(Number(await b.metricValue("stream-thread-metrics", "process-total")) >= bLines.length);
  assert.is((await http(`${sluice.url}/health`)).json().applications["wordcount-b"], "RUNNING");
});

deployments("deploying an id that exists is a 409 naming the field; nothing else changes", async ({ sluice }) => {
  for (const id of ["wordcount", "wordcount-b"]) {
    const res = await deploy(sluice.url, wordcountOn(id));
    assert.is(res.status, 409);
    assert.equal(Object.keys(res.json()).sort(), ["error_code", "message", "path"]);
    assert.is(res.json().error_code, 409);
    assert.match(res.json().message, `Field 'config.application.id': an instance '${id}' exists already`);
  }
});

deployments("every bad deploy request is a 400 in the error shape naming the field", async ({ sluice }) => {
  const config = { "application.id": "wordcount-x" };
  const cases: [unknown, RegExp][] = [
    ["{not json", /not valid JSON/],
    ["[1]", /Request body must be a JSON object, got an array/],
    [{ topology: "WordCount", config, replicas: 2 }, /unknown field 'replicas'/],
    [{ config }, /Field 'topology' is required/],
    [{ topology: 7, config }, /Field 'topology' must be a string, got 7/],
    [{ topology: "", config }, /Field 'topology' must not be empty/],
    [{ topology: "NoSuchTopology", config }, /Field 'topology': no topology named 'NoSuchTopology' \(known: .*WordCount/],
    [{ topology: "WordCount", version: "9.9.9", config }, /Field 'version': topology 'WordCount' has no version '9.9.9' \(versions: 1.0.0, or latest\)/],
    [{ topology: "WordCount", version: 1, config }, /Field 'version' must be a string, got 1/],
    [{ topology: "WordCount" }, /Field 'config' is required/],
    [{ topology: "WordCount", config: [] }, /Field 'config' must be an object, got an array/],
    [{ topology: "WordCount", config: {} }, /Field 'config.application.id' must name the new instance/],
    [{ topology: "WordCount", config: { "application.id": "../up" } }, /Field 'config.application.id' must name the new instance/],
    [{ topology: "WordCount", config: { ...config, "commit.interval.ms": "soon" } }, /Field 'config.commit.interval.ms': .*must be an integer/],
    [{ topology: "WordCount", config: { ...config, "processing.guarantee": "maybe" } }, /Field 'config.processing.guarantee': .*must be one of/],
    [{ topology: "WordCount", config: { ...config, "no.such.key": 1 } }, /^Field 'config.no.such.key' is not a key of topology 'WordCount' \(its keys: application.id, input.topic, output.topic\) nor a streams key/],
    [{ topology: "WordCount", config: { ...config, "input.topic": 5 } }, /Field 'config.input.topic' must be a string, as topology 'WordCount' declares it, got 5/],
    [{ topology: "WordCount", config: { ...config, autostart: false } }, /Field 'config.autostart' applies to the instances started at boot/],
    // A secret's value is never echoed, even a mistyped one.
    [{ topology: "WordCount", config: { ...config, "sasl.password": { mistyped: "s3cret" } } }, /^Field 'config.sasl.password': (?!.*s3cret).*got \[hidden\]$/],
  ];
  for (const [body, message] of cases) {
    const res = await deploy(sluice.url, body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.equal(res.json().error_code, 400);
    assert.is(res.json().path, "/api/v1/streams");
    assert.match(res.json().message, message);
  }
  assert.not.ok((await http(`${sluice.url}/api/v1/streams`)).json().includes("wordcount-x"));
});

deployments("the catalogue lists every topology with its versions, defaults and event streams; autostart=false is listed, not started", async ({ sluice }) => {
  const topologies = (await http(`${sluice.url}/api/v1/topologies`)).json();
  assert.equal(topologies.map((topology: { name: string }) => topology.name), ["LatestReadings", "PageViews", "Sessions", "WordCount"]);
  const wordcount = (await http(`${sluice.url}/api/v1/topologies/WordCount`)).json();
  assert.equal(wordcount, {
    name: "WordCount",
    description: "Counts the words of the lines written to its input topic (input.topic, default 'words')",
    config: { "application.id": "wordcount", "input.topic": "words", "output.topic": "word-counts" },
    event_streams: ["word-counts"],
    autostart: true,
    versions: ["1.0.0"],
    latest: "1.0.0",
  });
  const latest = await http(`${sluice.url}/api/v1/topologies/WordCount/versions/latest`);
  assert.is(latest.status, 200);
  assert.equal(latest.json(), (await http(`${sluice.url}/api/v1/topologies/WordCount/versions/1.0.0`)).json());
  assert.is(latest.json().version, "1.0.0");
  const pageviews = topologies.find((topology: { config: Record<string, unknown> }) => topology.config["application.id"] === "pageviews");
  assert.is(pageviews.autostart, false);
  assert.not.ok((await http(`${sluice.url}/api/v1/streams`)).json().includes("pageviews"));
  for (const missing of ["/NoSuch", "/WordCount/versions/2.0.0", "/NoSuch/versions/latest"]) {
    const res = await http(`${sluice.url}/api/v1/topologies${missing}`);
    assert.is(res.status, 404, missing);
    assert.is(res.json().error_code, 404);
  }
  const deployed = await deploy(sluice.url, { topology: pageviews.name, version: "latest", config: { "application.id": "pageviews" } });
  assert.is(deployed.status, 201, deployed.text);
  await streamsClient(sluice.url, "pageviews").waitForState(["RUNNING"]);
  assert.is((await terminate(sluice.url, "pageviews")).status, 200);
});

deployments("a paused instance keeps its partitions and answers queries while its lag grows; resumed, it drains the lag and counts exactly", async ({ sluice }) => {
  const b = streamsClient(sluice.url, "wordcount-b");
  const before = await countsOf(sluice.url, "wordcount-b");
  const paused = await pause(sluice.url, "wordcount-b");
  assert.is(paused.status, 200, paused.text);
  assert.is(paused.json().state.paused, true);
  assert.ok(["RUNNING", "REBALANCING"].includes(paused.json().state.state));
  assert.is((await b.json()).state.paused, true);
  assert.is((await pause(sluice.url, "wordcount-b")).status, 200, "pausing a paused instance changes nothing");

  const more = lines("gamma", 25);
  await sluice.produce("wordcount-b-words", more.map((value) => ({ value })));
  const lagged = await eventually(async () => {
    const positions = (await b.json("/offsets")).consumers[0]?.positions ?? [];
    const input = positions.find((position: { topic: string }) => position.topic === "wordcount-b-words");
    return input && input.lag >= more.length && input;
  }, { what: "the paused instance's lag to grow" });
  assert.ok(lagged.lag >= more.length);
  assert.equal(await countsOf(sluice.url, "wordcount-b"), before, "the stores answer, unchanged");
  const instances = (await http(`${sluice.url}/api/v1/applications/wordcount-b`)).json().instances;
  assert.ok(instances[0].assignments.some((assignment: { topic: string }) => assignment.topic === "wordcount-b-words"), "partitions kept");
  assert.is((await b.json("/status")).threads.length, 1);
  const health = (await http(`${sluice.url}/health`)).json();
  assert.equal(health.paused, ["wordcount-b"]);
  const readiness = await http(`${sluice.url}/health/readiness`);
  assert.is(readiness.status, 200, `a paused instance answers queries, so it is ready: ${readiness.text}`);
  assert.equal(await countsOf(sluice.url, "wordcount-b"), before, "still nothing processed");

  const resumed = await resume(sluice.url, "wordcount-b");
  assert.is(resumed.status, 200);
  assert.is(resumed.json().state.paused, undefined);
  await eventually(async () => {
    const input = (await b.json("/offsets")).consumers[0]?.positions.find((position: { topic: string }) => position.topic === "wordcount-b-words");
    return input?.lag === 0;
  }, { what: "the lag to drain", timeoutMs: 30_000 });
  await untilExactCounts(sluice.url, "wordcount-b", [...lines("beta", 30), ...more]);
  assert.equal((await http(`${sluice.url}/health`)).json().paused, []);
});

deployments("pause, resume and terminate of an unknown id are 404s; a bad terminate body is a 400", async ({ sluice }) => {
  for (const res of [await pause(sluice.url, "nope"), await resume(sluice.url, "nope"), await terminate(sluice.url, "nope", { cleanup: true })]) {
    assert.is(res.status, 404);
    assert.equal(res.json(), { error_code: 404, message: "Unknown application 'nope'", path: res.json().path });
  }
  const bad = await terminate(sluice.url, "wordcount-b", { cleanup: "yes" });
  assert.is(bad.status, 400);
  assert.match(bad.json().message, /Field 'cleanup' must be a boolean, got "yes"/);
  const unknownField = await terminate(sluice.url, "wordcount-b", { cleanup: true, force: true });
  assert.is(unknownField.status, 400);
  assert.match(unknownField.json().message, /Request body has an unknown field 'force'; expected cleanup/);
});

deployments("terminate with cleanup stops the instance, removes it from every listing and the deployments file, and deletes its state", async ({ sluice }) => {
  const stateDir = path.join(sluice.stateDir, "wordcount-b");
  assert.ok(fs.existsSync(stateDir));
  const file = path.join(sluice.stateDir, "deployments.json");
  assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).deployed.map((instance: { id: string }) => instance.id), ["wordcount-b"]);
  const res = await terminate(sluice.url, "wordcount-b", { cleanup: true });
  assert.is(res.status, 200, res.text);
  assert.equal(res.json(), { id: "wordcount-b", cleanup: true });
  assert.not.ok(fs.existsSync(stateDir), "state directory removed");
  for (const listing of ["/api/v1/streams", "/api/v1/applications"]) assert.not.ok((await http(`${sluice.url}${listing}`)).json().includes("wordcount-b"), listing);
  assert.is((await http(`${sluice.url}/health`)).json().applications["wordcount-b"], undefined);
  assert.is((await http(`${sluice.url}/api/v1/streams/wordcount-b`)).status, 404);
  assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).deployed, []);
  assert.is((await terminate(sluice.url, "wordcount-b")).status, 404);
});

deployments("an id deployed again is a new instance: its event stream replays nothing of the terminated one's", async ({ sluice }) => {
  const config = { ...wordcountOn("wordcount-b").config, "input.topic": "wordcount-b-again" };
  assert.is((await deploy(sluice.url, { topology: "WordCount", config })).status, 201);
  await streamsClient(sluice.url, "wordcount-b").waitForState(["RUNNING"]);
  const events = await openSse(`${sluice.url}/api/v1/streams/wordcount-b/subscribe/word-counts`, { "Last-Event-ID": "0" });
  await sluice.produce("wordcount-b-again", [{ value: "delta" }]);
  const [first] = await events.waitForEvents(1);
  events.close();
  assert.equal(first.data.key, "delta");
  assert.is((await terminate(sluice.url, "wordcount-b", { cleanup: true })).status, 200);
});

deployments("terminating a boot-time instance is remembered in the deployments file", async ({ sluice }) => {
  const res = await terminate(sluice.url, "latest");
  assert.is(res.status, 200, res.text);
  assert.equal(res.json(), { id: "latest", cleanup: false });
  assert.equal(JSON.parse(fs.readFileSync(path.join(sluice.stateDir, "deployments.json"), "utf8")).terminated, ["latest"]);
});

deployments.run();

const headless = suite<Context>("headless mode refuses deploy, terminate, pause and resume");

headless.before(async (context) => {
  context.sluice = await startSluiceWithExamples({ "server.headless": "true" });
});
headless.after(async ({ sluice }) => sluice?.close());

headless("each is a 403 in the error shape; reads stay allowed", async ({ sluice }) => {
  const refused = [
    await deploy(sluice.url, wordcountOn("wordcount-b")),
    await terminate(sluice.url, "wordcount"),
    await pause(sluice.url, "wordcount"),
    await resume(sluice.url, "wordcount"),
  ];
  for (const res of refused) {
    assert.is(res.status, 403);
    assert.is(res.json().error_code, 403);
    assert.match(res.json().message, /the server is headless \(server.headless\)/);
  }
  assert.is((await http(`${sluice.url}/api/v1/topologies`)).status, 200);
  assert.ok((await http(`${sluice.url}/api/v1/streams`)).json().includes("wordcount"));
});

headless.run();
