import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { FIXTURES, http } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { openSse } from "../event-streams/sse-reader";

/*
 * Stream threads in worker threads: test/fixtures/thread-ids (loaded from its package through plugins.packages)
 * writes, for every record, which thread processed it. With streams.num.stream.threads=2 each thread is a worker
 * thread of its own; queries (key, range, window), /metrics, /status, events, adding and removing threads work
 * across them, and a worker that dies makes the application ERROR. The same provider registered in-process
 * (Sluice.register) cannot be loaded by a worker: its threads run on the main event loop, and answer the same.
 */
const PACKAGE = path.join(FIXTURES, "thread-ids");
const KEYS = Array.from({ length: 24 }, (_, i) => `k${String(i).padStart(2, "0")}`);
/** The records' time: a window's start, so that both runs' windows are the same. */
const TIME = 1_700_000_040_000;

interface Context {
  sluice: SluiceWithExamples;
  /** The log lines of Sluice at level info. */
  lines: string[];
}

function threadIdsSluice(overrides: Record<string, string>, services?: Record<string, unknown[]>, logSink?: (line: string) => void): Promise<SluiceWithExamples> {
  return startSluiceWithExamples({ "streams.num.stream.threads": "2", "streams.num.partitions": "4", ...overrides }, services, logSink);
}

const url = (sluice: SluiceWithExamples, suffix: string) => `${sluice.url}/api/v1/streams/thread-ids${suffix}`;
const getJson = async (target: string) => {
  const res = await http(target);
  if (res.status !== 200) throw new Error(`GET ${target}: ${res.status} ${res.text}`);
  return res.json();
};
const query = async (sluice: SluiceWithExamples, store: string, body: unknown) => {
  const res = await http(`${sluice.url}/api/v1/applications/thread-ids/stores/${store}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return res.json();
};
const records = (answer: { result: { success: { records: unknown[] }[] } }) => answer.result.success.flatMap((entry) => entry.records);

function untilRunning(sluice: SluiceWithExamples, count: number): Promise<{ name: string; active_tasks: unknown[] }[]> {
  return eventually(
    async () => {
      const status = await getJson(url(sluice, "/status"));
      return status.state === "RUNNING" && status.threads.length === count && status.threads.every((thread: { state: string }) => thread.state === "RUNNING") && status.threads;
    },
    { timeoutMs: 30_000, what: `thread-ids RUNNING with ${count} threads` },
  );
}

/** Produces one record per key (value `value`, round `round`) and waits until every one is counted; the rows. */
async function processAll(sluice: SluiceWithExamples, value: string, round: number): Promise<{ key: string; value: string }[]> {
  await sluice.produce("tid-in", KEYS.map((key) => ({ key, value, timestamp: String(TIME) })));
  const counted = { type: "window", query: { fetch_all: { time_from: TIME, time_to: TIME } } };
  await eventually(async () => {
    const answer = await query(sluice, "per-minute", counted);
    return answer.status === "SUCCESS" && (records(answer) as { value: number }[]).filter((row) => row.value === round).length === KEYS.length;
  }, { timeoutMs: 30_000, what: `every key counted ${round} times` });
  const rows = records(await query(sluice, "thread-of", { type: "key_value", query: { all: {} } })) as { key: string; value: string }[];
  assert.is(rows.length, KEYS.length);
  return rows;
}

/** The queries both runs answer; their records, which must be the same but for the thread names. */
async function answers(sluice: SluiceWithExamples): Promise<unknown[]> {
  const range = await query(sluice, "thread-of", { type: "key_value", query: { range: { key_from: "k03", key_to: "k11" } } });
  const window = await query(sluice, "per-minute", { type: "window", query: { fetch_time_range: { key: "k05", time_from: TIME - 60_000, time_to: TIME + 60_000 } } });
  const all = await query(sluice, "per-minute", { type: "window", query: { fetch_all: { time_from: TIME - 60_000, time_to: TIME + 60_000 } } });
  for (const answer of [range, window, all]) assert.is(answer.status, "SUCCESS", JSON.stringify(answer));
  return [records(range), records(window), records(all)];
}

const workers = suite<Context>("stream threads in worker threads");
let workerAnswers: unknown[] = [];

workers.before(async (context) => {
  context.lines = [];
  context.sluice = await threadIdsSluice({ "plugins.packages": PACKAGE, "log.level": "info" }, undefined, (line) => context.lines.push(line));
  await untilRunning(context.sluice, 2);
});
workers.after(async ({ sluice }) => {
  await sluice?.close();
});

workers("each thread is a worker thread of its own: records are processed off the main thread, by two workers", async ({ sluice }) => {
  const events = await openSse(url(sluice, "/subscribe/thread-ids"));
  try {
    const rows = await processAll(sluice, "hello", 1);
    const threads = new Set(rows.map((row) => row.value));
    assert.ok([...threads].every((thread) => /^worker:\d+$/.test(thread)), JSON.stringify(rows));
    assert.is(threads.size, 2, "both threads own tasks");
    for (const key of ["k00", "k13", "k23"]) {
      const answer = await query(sluice, "thread-of", { type: "key_value", query: { get: { key } } });
      assert.equal(records(answer), [rows.find((row) => row.key === key)], key);
    }
    // Events of both workers reach the subscriber.
    const received = await events.waitForEvents(KEYS.length, 30_000);
    assert.equal(new Set(received.map((event) => event.data.value)), threads);
  } finally {
    events.close();
  }
  workerAnswers = await answers(sluice);
  assert.is((workerAnswers[0] as unknown[]).length, 9);
  assert.equal(workerAnswers[1], [{ key: { key: "k05", window_start: TIME, window_end: TIME + 60_000 }, value: 1 }]);
});

workers("/metrics and /status show every worker thread's figures and tasks", async ({ sluice }) => {
  const list = await untilRunning(sluice, 2);
  assert.equal(list.map((thread) => thread.name), ["thread-ids-StreamThread-1", "thread-ids-StreamThread-2"]);
  assert.ok(list.every((thread) => thread.active_tasks.length > 0), JSON.stringify(list));
  const processed = await eventually(
    async () => {
      const metrics = await getJson(url(sluice, "/metrics/group/stream-thread-metrics/name/process-total"));
      const byThread = metrics[0].metrics.map((metric: { tags: Record<string, string>; value: number }) => [metric.tags["thread-id"], metric.value]);
      return byThread.length === 2 && byThread.every(([, value]: [string, number]) => value > 0) && byThread;
    },
    { timeoutMs: 10_000, what: "both threads' process-total" },
  );
  assert.equal(processed.map(([thread]: [string]) => thread).sort(), ["thread-ids-StreamThread-1", "thread-ids-StreamThread-2"]);
  assert.is(processed.reduce((sum: number, [, value]: [string, number]) => sum + value, 0), KEYS.length);
  // The servers record lists the instance once, with both worker threads' partitions (it reads the group through the
  // main thread's admin client).
  const servers = await eventually(
    async () => {
      const record = await getJson(`${sluice.url}/api/v1/applications/thread-ids`);
      const local = record.instances.filter((instance: { is_local: boolean }) => instance.is_local);
      const input = local[0]?.assignments.find((assignment: { topic: string }) => assignment.topic === "tid-in");
      return record.instances.length === 1 && input?.partitions.length === 4 && record;
    },
    { timeoutMs: 10_000, what: "the instance with its four partitions" },
  );
  assert.equal(servers.instances[0].assignments.find((assignment: { topic: string }) => assignment.topic === "tid-in").partitions, [0, 1, 2, 3]);
  const prometheus = await http(`${sluice.url}/metrics`);
  assert.is(prometheus.status, 200);
  assert.match(prometheus.text, /thread_id="thread-ids-StreamThread-2"/);
});

workers("a thread added at run time is a worker too; removing one moves its tasks to the others; the workers follow the log level", async ({ sluice, lines }) => {
  const level = (body: string) => http(`${sluice.url}/api/v1/log/level`, { method: "PUT", headers: { "content-type": "application/json" }, body });
  const takingOver = () => lines.filter((line) => line.includes('"level":"debug"') && line.includes("taking over partitions at their committed offsets")).length;
  const added = await http(url(sluice, "/threads"), { method: "POST" });
  assert.equal(added.json(), { thread: "thread-ids-StreamThread-3" });
  await untilRunning(sluice, 3);
  const rows = await processAll(sluice, "again", 2);
  const threads = new Set(rows.map((row) => row.value));
  assert.is(threads.size, 3, JSON.stringify(rows));
  assert.ok([...threads].every((thread) => /^worker:\d+$/.test(thread)));
  // The log level changes while every worker runs (each started at info): the remaining workers take the removed
  // one's partitions over in the rebalance, and say so at debug level.
  assert.is(takingOver(), 0, "no debug line at level info");
  assert.is((await level('{"level":"debug"}')).status, 200);
  assert.is((await http(url(sluice, "/threads"), { method: "DELETE", body: JSON.stringify({ thread: "thread-ids-StreamThread-1" }), headers: { "content-type": "application/json" } })).status, 200);
  await untilRunning(sluice, 2);
  await eventually(() => takingOver() >= 1, { timeoutMs: 10_000, what: "the workers' debug lines" });
  assert.is((await level('{"level":"info"}')).status, 200);
  const after = await processAll(sluice, "once more", 3);
  assert.is(new Set(after.map((row) => row.value)).size, 2);
});

workers("a worker that dies makes the application ERROR, naming the thread; restarted, it meets the record again and fails again", async ({ sluice }) => {
  const failure = async (since: number) =>
    eventually(
      async () => {
        const description = await getJson(url(sluice, ""));
        return description.state.state === "ERROR" && Date.parse(description.state.since.replace(/\[.*\]$/, "")) >= since && description;
      },
      { timeoutMs: 30_000, what: "thread-ids in ERROR" },
    );
  await sluice.produce("tid-in", [{ key: "k00", value: "exit" }]);
  assert.match((await failure(0)).exception, /the worker of stream thread thread-ids-StreamThread-\d exited with code 7/);
  // restart.on.error=never: it stays in ERROR until restarted. The record was never committed: the restarted run
  // processes it again, and its worker dies again — an ERROR again, never a hang.
  assert.is((await getJson(url(sluice, "/status"))).state, "ERROR");
  const restarted = Date.now();
  assert.is((await http(url(sluice, "/restart"), { method: "POST" })).status, 200);
  assert.match((await failure(restarted)).exception, /exited with code 7/);
});

const mainLoop = suite<Context>("stream threads of an in-process provider, on the main event loop");

mainLoop.before(async (context) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ThreadIdsProvider } = require(path.join(PACKAGE, "thread-ids.js"));
  // A package with named code only: the registered provider is the only one.
  context.lines = [];
  context.sluice = await threadIdsSluice({ "plugins.packages": path.join(FIXTURES, "named-code"), "log.level": "info" }, { "sluice.streams.TopologyProvider": [new ThreadIdsProvider()] }, (line) => context.lines.push(line));
  await untilRunning(context.sluice, 2);
});
mainLoop.after(async ({ sluice }) => {
  await sluice?.close();
});

mainLoop("a Sluice.register'ed provider's threads run on the main thread, and its queries answer as the workers' did", async ({ sluice, lines }) => {
  const said = lines.filter((line) => line.includes("the stream threads run on the main event loop"));
  assert.is(said.length, 1, "one line says why");
  assert.match(said[0], "given in-process");
  const rows = await processAll(sluice, "hello", 1);
  assert.equal(new Set(rows.map((row) => row.value)), new Set(["main:0"]));
  const answered = await answers(sluice);
  const threadless = (list: unknown) => JSON.stringify(list).replace(/(main|worker):\d+/g, "thread");
  assert.ok(workerAnswers.length > 0, "the worker suite ran first");
  assert.is(threadless(answered), threadless(workerAnswers));
});

workers.run();
mainLoop.run();
