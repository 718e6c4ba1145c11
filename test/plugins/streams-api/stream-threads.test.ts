import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http, type HttpResult } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { basicAs, DEPLOYER_PASSWORD } from "./deployments-client";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * wordcount with streams.num.stream.threads=2 behind basic authentication: /status, /offsets and /metrics show each
 * thread; POST and DELETE /threads add and remove threads while it runs (operator role), with JSON errors that name
 * the problem; queries answer from every thread's tasks.
 */
interface Context {
  dir: string;
  sluice: SluiceWithExamples;
}

interface ThreadStatus {
  name: string;
  state: string;
  active_tasks: { task_id: string }[];
  clients: { consumer_client_id: string; producer_client_ids: string[] };
}

const OPERATOR = basicAs("otto");
const VIEWER = basicAs("vera");
const threads = suite<Context>("stream threads of wordcount over REST");

threads.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-threads-"));
  const users = await writeUsersFile(context.dir, DEPLOYER_PASSWORD, { otto: "operator", vera: "viewer" });
  context.sluice = await startSluiceWithExamples({
    "server.auth.mechanism": "basic",
    "server.auth.users.file": users,
    "server.auth.failure.delay.ms": "0",
    "streams.num.stream.threads": "2",
    // words of four partitions: eight tasks, enough for every thread of three to hold some.
    "streams.num.partitions": "4",
  });
  await untilRunning(context.sluice, 2);
});
threads.after(async ({ sluice, dir }) => {
  await sluice?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const url = (sluice: SluiceWithExamples, suffix: string, id = "wordcount") => `${sluice.url}/api/v1/streams/${id}${suffix}`;
const get = async (sluice: SluiceWithExamples, suffix: string) => {
  const res = await http(url(sluice, suffix), { headers: VIEWER });
  if (res.status !== 200) throw new Error(`GET ${suffix}: ${res.status} ${res.text}`);
  return res.json();
};
const threadCall = (sluice: SluiceWithExamples, method: "POST" | "DELETE", options: { body?: string; as?: Record<string, string>; id?: string } = {}): Promise<HttpResult> =>
  http(url(sluice, "/threads", options.id), {
    method,
    body: options.body,
    headers: { ...(options.as ?? OPERATOR), ...(options.body === undefined ? {} : { "content-type": "application/json" }) },
  });

/** Waits until wordcount is RUNNING with `count` threads, each RUNNING; its threads. */
function untilRunning(sluice: SluiceWithExamples, count: number): Promise<ThreadStatus[]> {
  return eventually(
    async () => {
      const status = await get(sluice, "/status");
      const list = status.threads as ThreadStatus[];
      return status.state === "RUNNING" && list.length === count && list.every((thread) => thread.state === "RUNNING") && list;
    },
    { timeoutMs: 30_000, what: `wordcount RUNNING with ${count} threads` },
  ).catch(async (error: Error) => {
    const description = await get(sluice, "");
    throw new Error(`${error.message}; it is ${JSON.stringify(description.state)}, exception ${description.exception}; threads ${JSON.stringify((await get(sluice, "/status")).threads)}`);
  });
}

const taskIds = (list: ThreadStatus[]) => list.flatMap((thread) => thread.active_tasks.map((task) => task.task_id)).sort();

threads("each thread is listed with its own clients and a share of the tasks; offsets and metrics per thread", async ({ sluice }) => {
  const list = await untilRunning(sluice, 2);
  assert.equal(list.map((thread) => thread.name), ["wordcount-StreamThread-1", "wordcount-StreamThread-2"]);
  assert.match(list[0].clients.consumer_client_id, /^wordcount-\d+-StreamThread-1-consumer$/);
  assert.match(list[1].clients.consumer_client_id, /^wordcount-\d+-StreamThread-2-consumer$/);
  assert.match(list[1].clients.producer_client_ids[0], /^wordcount-\d+-StreamThread-2-producer$/);
  assert.ok(list.every((thread) => thread.active_tasks.length > 0), JSON.stringify(list));
  const tasks = taskIds(list);
  assert.is(new Set(tasks).size, tasks.length, "a task on one thread only");
  const offsets = await get(sluice, "/offsets");
  assert.equal(offsets.consumers.map((consumer: { stream_thread: string }) => consumer.stream_thread), ["wordcount-StreamThread-1", "wordcount-StreamThread-2"]);
  const metrics = await get(sluice, "/metrics/group/stream-thread-metrics/name/process-total");
  const tagged = metrics[0].metrics.map((metric: { tags: Record<string, string> }) => metric.tags["thread-id"]).sort();
  assert.equal(tagged, ["wordcount-StreamThread-1", "wordcount-StreamThread-2"]);
});

threads("keys on every thread's partitions answer: a key lookup goes to the thread that owns it, `all` covers every thread", async ({ sluice }) => {
  const words = Array.from({ length: 40 }, (_, i) => `thread${i}`);
  await sluice.produce("words", [{ value: words.join(" ") }]);
  const query = (body: unknown) =>
    http(`${sluice.url}/api/v1/applications/wordcount/stores/counts`, { method: "POST", headers: { ...VIEWER, "content-type": "application/json" }, body: JSON.stringify(body) });
  const counted = await eventually(
    async () => {
      const answer = (await query({ type: "key_value", query: { all: {} } })).json();
      if (answer.status !== "SUCCESS") return false;
      const keys = answer.result.success.flatMap((entry: { records: { key: string }[] }) => entry.records.map((record) => record.key));
      return words.every((word) => keys.includes(word)) && answer;
    },
    { timeoutMs: 30_000, what: "every word counted" },
  );
  // The counting tasks (sub-topology 1) are on both threads, so the forty words' four partitions are too.
  const list = await untilRunning(sluice, 2);
  assert.ok(list.every((thread) => thread.active_tasks.some((task) => task.task_id.startsWith("1_"))), JSON.stringify(list));
  assert.is(counted.result.success[0].total, 40);
  for (const word of words) {
    const answer = (await query({ type: "key_value", query: { get: { key: word } } })).json();
    assert.is(answer.status, "SUCCESS", `${word}: ${JSON.stringify(answer)}`);
    assert.equal(answer.result.success[0].records, [{ key: word, value: 1 }]);
  }
});

threads("POST /threads adds a thread that takes tasks; DELETE /threads removes the one named, and the next added reuses its index", async ({ sluice }) => {
  const added = await threadCall(sluice, "POST");
  assert.is(added.status, 200, added.text);
  assert.equal(added.json(), { thread: "wordcount-StreamThread-3" });
  let list = await untilRunning(sluice, 3);
  assert.ok(list.every((thread) => thread.active_tasks.length > 0), JSON.stringify(list));
  const removed = await threadCall(sluice, "DELETE", { body: JSON.stringify({ thread: "wordcount-StreamThread-1" }) });
  assert.is(removed.status, 200, removed.text);
  assert.equal(removed.json(), { thread: "wordcount-StreamThread-1" });
  list = await untilRunning(sluice, 2);
  assert.equal(list.map((thread) => thread.name), ["wordcount-StreamThread-2", "wordcount-StreamThread-3"]);
  const before = taskIds(list);
  assert.ok(before.length > 0);
  const metrics = await get(sluice, "/metrics/group/stream-thread-metrics/name/process-total");
  assert.not.ok(metrics[0].metrics.some((metric: { tags: Record<string, string> }) => metric.tags["thread-id"] === "wordcount-StreamThread-1"), "the removed thread's metrics are gone");
  const again = await threadCall(sluice, "POST");
  assert.equal(again.json(), { thread: "wordcount-StreamThread-1" });
  await untilRunning(sluice, 3);
  // No body: the first thread goes.
  assert.equal((await threadCall(sluice, "DELETE")).json(), { thread: "wordcount-StreamThread-1" });
  await untilRunning(sluice, 2);
});

threads("errors: 400 for a malformed body, 404 for an unknown thread or application, 403 for a viewer, 401 without credentials", async ({ sluice }) => {
  const cases: [string, RegExp][] = [
    ["{not json", /not valid JSON/],
    ['{"thread": 2}', /'thread' must be a string/],
    ['{"thread": ""}', /'thread'/],
    ['{"name": "wordcount-StreamThread-2"}', /unknown field 'name'/],
  ];
  for (const [body, message] of cases) {
    const res = await threadCall(sluice, "DELETE", { body });
    assert.is(res.status, 400, body);
    assert.is(res.json().error_code, 400);
    assert.match(res.json().message, message);
  }
  const unknown = await threadCall(sluice, "DELETE", { body: '{"thread": "wordcount-StreamThread-9"}' });
  assert.is(unknown.status, 404);
  assert.match(unknown.json().message, "has no stream thread 'wordcount-StreamThread-9'");
  assert.is((await threadCall(sluice, "POST", { id: "nope" })).status, 404);
  const viewer = await threadCall(sluice, "POST", { as: VIEWER });
  assert.is(viewer.status, 403);
  assert.match(viewer.json().message, "operator");
  assert.is((await threadCall(sluice, "DELETE", { as: {} })).status, 401);
  assert.is((await untilRunning(sluice, 2)).length, 2, "nothing changed");
});

threads("409: the last thread cannot be removed, and a stopped instance neither adds nor removes threads", async ({ sluice }) => {
  assert.is((await threadCall(sluice, "DELETE")).status, 200);
  await untilRunning(sluice, 1);
  const last = await threadCall(sluice, "DELETE");
  assert.is(last.status, 409);
  assert.match(last.json().message, "is the last stream thread of application 'wordcount'");
  const stop = await http(url(sluice, "/stop"), { method: "DELETE", headers: OPERATOR });
  assert.is(stop.status, 200, stop.text);
  for (const method of ["POST", "DELETE"] as const) {
    const res = await threadCall(sluice, method);
    assert.is(res.status, 409, method);
    assert.match(res.json().message, "it is NOT_RUNNING, not RUNNING or REBALANCING");
  }
  // A restart starts num.stream.threads threads again.
  assert.is((await http(url(sluice, "/restart"), { method: "POST", headers: OPERATOR })).status, 200);
  await untilRunning(sluice, 2);
});

threads("num.stream.threads is checked on deploy: 0 is a 400 naming the key; a deployed instance runs the threads it asks for", async ({ sluice }) => {
  const deploy = (threadCount: unknown) =>
    http(`${sluice.url}/api/v1/streams`, {
      method: "POST",
      headers: { ...OPERATOR, "content-type": "application/json" },
      body: JSON.stringify({ topology: "WordCount", config: { "application.id": "wordcount-b", "input.topic": "words-b", "output.topic": "counts-b", "num.stream.threads": threadCount } }),
    });
  const refused = await deploy(0);
  assert.is(refused.status, 400, refused.text);
  assert.match(refused.json().message, /num\.stream\.threads.*must be at least 1/);
  const deployed = await deploy(3);
  assert.is(deployed.status, 201, deployed.text);
  await eventually(
    async () => {
      const res = await http(url(sluice, "/status", "wordcount-b"), { headers: VIEWER });
      return res.status === 200 && res.json().threads.length === 3;
    },
    { timeoutMs: 30_000, what: "wordcount-b with three threads" },
  );
  assert.is((await http(`${sluice.url}/api/v1/streams/wordcount-b`, { method: "DELETE", headers: OPERATOR })).status, 200);
});

threads.run();
