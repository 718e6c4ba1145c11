import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { FIXTURES, http } from "../../helpers/sluice";
import { runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { EXAMPLES_PACKAGE } from "../../helpers/streams";
import { postQuery, query, recordsOf, type QueryAnswer } from "./query-client";

/*
 * Two `sluice start` processes running wordcount on one standalone broker (`words` has 4 partitions): each
 * answers for the whole application with remote access — over REST, and to a REST extension (the word-queries
 * fixture) through the interactive-query service — and the survivor of a kill -9 answers PARTIAL until the group
 * rebalances, then SUCCESS with every word.
 */
const test = suite("wordcount in two processes");

const LINES = ["kafka streams", "kafka sluice", "state store", "interactive queries", "kafka", "remote store", "sluice sluice sluice"];
const EXPECTED: Record<string, number> = {};
for (const word of LINES.join(" ").split(" ")) EXPECTED[word] = (EXPECTED[word] ?? 0) + 1;

let broker: SluiceProcess;
let instances: { process: SluiceProcess; url: string; server: string }[] = [];
const spawned: SluiceProcess[] = [];
let producer: Producer;
const stateDirs: string[] = [];

const remote = { remote_access_allowed: true, query_timeout_ms: 5_000 };
const all = (url: string): Promise<QueryAnswer> => query(url, "wordcount", "counts", { type: "key_value", set_options: remote, query: { all: {} } });
const byKey = (counts: [string, unknown][]) => Object.fromEntries(counts.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const countsOf = (answer: QueryAnswer) => byKey(recordsOf(answer).map((record) => [record.key, record.value]));
const EXPECTED_COUNTS = byKey(Object.entries(EXPECTED));
const WORD_QUERIES = path.join(FIXTURES, "word-queries");

async function stop(process: SluiceProcess, signal: NodeJS.Signals): Promise<void> {
  if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill(signal);
  await process.exited;
}

test.before(async () => {
  broker = runSluice(["broker", "--broker.port=0", "--broker.storage=memory"]);
  spawned.push(broker);
  const port = await eventually(() => broker.logs().find((line) => line.msg === "broker listening")?.port as number | undefined, { what: "the broker to listen" });
  const bootstrap = `127.0.0.1:${port}`;
  const kafka = new Kafka({ clientId: "two-processes-test", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "words", numPartitions: 4 }], waitForLeaders: true });
  await admin.disconnect();
  producer = kafka.producer();
  await producer.connect();
  const start = () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-two-"));
    stateDirs.push(stateDir);
    const process = runSluice([
      "start",
      `--plugins.packages=${EXAMPLES_PACKAGE},${WORD_QUERIES}`,
      "--server.rest.extensions=true",
      `--streams.bootstrap.servers=${bootstrap}`,
      "--streams.auto.create.topics=true",
      "--server.port=0",
      `--streams.state.dir=${stateDir}`,
      "--streams.session.timeout.ms=6000",
    ]);
    spawned.push(process);
    return process;
  };
  const processes = [start(), start()];
  instances = await Promise.all(
    processes.map(async (process) => {
      const url = await process.url(30_000);
      return { process, url, server: url.replace("http://", "") };
    }),
  );
  await eventually(
    async () => {
      const record = (await http(`${instances[0].url}/api/v1/applications/wordcount`)).json();
      return record.instances?.length === 2 && record.instances.every((instance: { stores: string[] }) => instance.stores.includes("counts"));
    },
    { timeoutMs: 30_000, what: "both processes to host the counts store" },
  );
  await producer.send({ topic: "words", messages: LINES.map((value) => ({ value })), acks: -1 });
  await eventually(async () => JSON.stringify(countsOf(await all(instances[0].url))) === JSON.stringify(EXPECTED_COUNTS), {
    timeoutMs: 30_000,
    what: "every word counted",
  });
});

test.after(async () => {
  await producer?.disconnect();
  // Sluice processes first, the broker they use last; also those a failed set-up left behind.
  for (const process of spawned.reverse()) await stop(process, "SIGTERM");
  for (const dir of stateDirs) fs.rmSync(dir, { recursive: true, force: true });
});

test("from either instance, get with remote access answers the right count for every word", async () => {
  for (const instance of instances) {
    let remoteAnswers = 0;
    for (const [word, count] of Object.entries(EXPECTED)) {
      const answer = await query(instance.url, "wordcount", "counts", { type: "key_value", set_options: remote, query: { get: { key: word } } });
      assert.is(answer.status, "SUCCESS", word);
      assert.is(answer.server, instance.server);
      assert.equal(recordsOf(answer), [{ key: word, value: count }], word);
      assert.is(answer.result.success.length, 1);
      if (answer.result.success[0].remote) remoteAnswers++;
    }
    assert.ok(remoteAnswers > 0 && remoteAnswers < Object.keys(EXPECTED).length, `remote answers: ${remoteAnswers}`);
  }
});

test("from either instance, all answers every word once with one success entry per server", async () => {
  for (const instance of instances) {
    const answer = await all(instance.url);
    assert.is(answer.status, "SUCCESS");
    assert.equal(answer.result.failure, []);
    assert.equal(answer.result.success.map((entry) => [entry.server, entry.remote]).sort(), instances.map((other) => [other.server, other.server !== instance.server]).sort());
    const keys = recordsOf(answer).map((record) => record.key);
    assert.is(keys.length, new Set(keys).size);
    assert.equal(countsOf(answer), EXPECTED_COUNTS);
    assert.is(answer.result.total, keys.length);
  }
});

/** What the word-queries extension answers for `body` through the service: its `/queries` route passes it on as it is. */
const askService = (url: string, store: string, body: unknown) =>
  http(`${url}/queries/wordcount/${store}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
const withoutTook = ({ took: _took, ...answer }: QueryAnswer) => answer;

test("a REST extension asking the interactive-query service gets the route's answer, remote instances included", async () => {
  const words = Object.keys(EXPECTED);
  const bodies = [
    { type: "key_value", query: { all: {} } },
    { type: "key_value", set_options: remote, query: { all: {} } },
    { type: "key_value", set_options: { ...remote, limit: 3 }, query: { range: { key_from: "a", key_to: "s" } } },
    { type: "key_value", query: { get: { key: "absent" } } },
    ...words.flatMap((word) => [
      { type: "key_value", query: { get: { key: word } } },
      { type: "key_value", set_options: remote, query: { get: { key: word } } },
    ]),
  ];
  for (const instance of instances) {
    for (const body of bodies) {
      const route = await postQuery(instance.url, "wordcount", "counts", body);
      const service = await askService(instance.url, "counts", body);
      assert.is(service.status, 200, service.text);
      assert.equal(withoutTook(service.json()), withoutTook(route.json()), JSON.stringify(body));
    }
  }
});

test("the service refuses what the route refuses, with the same status and message", async () => {
  const [{ url }] = instances;
  const refused = [
    { store: "nothing", body: { type: "key_value", query: { all: {} } } },
    { store: "counts", body: { type: "window", query: { all: {} } } },
    { store: "counts", body: { type: "key_value", query: { get: {} } } },
    { store: "counts", body: { type: "key_value", query: {} } },
    { store: "counts", body: { type: "key_value", set_options: { retries: "many" }, query: { all: {} } } },
  ];
  for (const { store, body } of refused) {
    const route = await postQuery(url, "wordcount", store, body);
    const service = await askService(url, store, body);
    assert.ok(route.status >= 400, `${route.status} ${route.text}`);
    assert.is(service.status, route.status, JSON.stringify(body));
    assert.is(service.json().message, route.json().message);
  }
});

test("through the extension, a word on the other instance's partitions is found with remote access only", async () => {
  const [{ url }] = instances;
  let elsewhere = 0;
  for (const [word, count] of Object.entries(EXPECTED)) {
    const routed = (await http(`${url}/words/${word}?remote=true`)).json();
    assert.equal([routed.status, routed.count], ["SUCCESS", count], word);
    const local = (await http(`${url}/words/${word}`)).json();
    if (routed.remote) {
      elsewhere++;
      assert.equal([local.status, local.count], ["NO_RESULT", 0], word);
    } else assert.equal([local.status, local.count, local.remote], ["SUCCESS", count, false], word);
  }
  assert.ok(elsewhere > 0, "some words are counted by the other instance");
});

test("with one instance killed, the survivor answers PARTIAL until the group rebalances, then SUCCESS with every word", async () => {
  const [survivor, killed] = instances;
  await stop(killed.process, "SIGKILL");
  const partial = await all(survivor.url);
  assert.is(partial.status, "PARTIAL");
  assert.equal(partial.result.success.map((entry) => entry.server), [survivor.server]);
  assert.equal(partial.result.failure.map((entry) => [entry.server, entry.remote]), [[killed.server, true]]);
  assert.ok(partial.result.failure[0].errors[0].message.length > 0);
  const recovered = await eventually(
    async () => {
      const answer = await all(survivor.url);
      return answer.status === "SUCCESS" ? answer : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, what: "the survivor to answer for every partition" },
  );
  assert.equal(recovered.result.success.map((entry) => entry.server), [survivor.server]);
  assert.equal(countsOf(recovered), EXPECTED_COUNTS);
});

test.run();
