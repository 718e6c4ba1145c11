import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { countsPartitions, localCounts, startWordcountCluster, stopProcess, tasksOf, trueCounts, untilExactCounts, type WordcountCluster } from "./wordcount-processes";

/*
 * Warm-up replicas and probing rebalances (KIP-441) as users run them: wordcount in `sluice start` processes against a
 * standalone `sluice broker`, `words` of four partitions. Instance A counts 5000 distinct words; B joins with an
 * empty state dir. The counting tasks' changelogs are far longer than acceptable.recovery.lag, so B is not given any of
 * them: it gets warm-up replicas (standby tasks) while A goes on running and answering every count. Once the warm-ups
 * have caught up, a probing rebalance moves half the counting tasks to B, which serves them with their full state,
 * restoring at most the tail its warm-up lacked.
 */
const test = suite("warm-up replicas of sluice processes");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(4);
});
test.after(async () => {
  await cluster?.close();
});

const COUNTING = ["1_0", "1_1", "1_2", "1_3"];
const ACCEPTABLE_RECOVERY_LAG = 200;
const FLAGS = [`--streams.acceptable.recovery.lag=${ACCEPTABLE_RECOVERY_LAG}`, "--streams.probing.rebalance.interval.ms=5000"];

/** `get` of `word` in `counts`, asked of the instance at `url` alone: its status, value, and whether a local active task answered. */
async function localCount(url: string, word: string): Promise<{ word: string; status: string; value?: number; localActive: boolean }> {
  const response = await http(`${url}/api/v1/applications/wordcount/stores/counts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", query: { get: { key: word } } }),
  });
  assert.is(response.status, 200, response.text);
  const answer = response.json() as { status: string; result?: { success?: { remote: boolean; standby?: boolean; records: { value: number }[] }[] } };
  const [entry] = answer.result?.success ?? [];
  return { word, status: answer.status, value: entry?.records[0]?.value, localActive: entry !== undefined && !entry.remote && entry.standby !== true };
}

const counting = (tasks: readonly string[]) => tasks.filter((task) => task.startsWith("1_"));

test("a new instance warms up before it takes counting tasks over; the old one answers throughout; a probing rebalance moves half to it", async () => {
  // 1000 lines of five distinct words each: 5000 keys, about 1250 changelog records per counting task.
  const lines = Array.from({ length: 1000 }, (_, line) => Array.from({ length: 5 }, (_, word) => `w${line * 5 + word}`).join(" "));
  for (let from = 0; from < lines.length; from += 100) await cluster.producer.send({ topic: "words", messages: lines.slice(from, from + 100).map((value) => ({ value })), acks: -1 });
  const truth = trueCounts(lines);
  const a = await cluster.start(undefined, undefined, FLAGS);
  await untilExactCounts(a.url, "wordcount", lines);
  assert.equal(counting((await tasksOf(a.url))!.active), COUNTING);

  const b = await cluster.start(undefined, undefined, FLAGS);
  // Until A gives a counting task up, every count answers from A (keyed queries: a spread one waits for RUNNING).
  const sample = Array.from({ length: 40 }, (_, index) => `w${index * 125}`);
  const answers: Awaited<ReturnType<typeof localCount>>[] = [];
  let sawWarmups: { active: string[]; standby: string[] } | undefined;
  await eventually(async () => {
    const answered = await Promise.all(sample.map((word) => localCount(a.url, word)));
    const [aTasks, bTasks] = await Promise.all([tasksOf(a.url, false), tasksOf(b.url)]);
    if (bTasks !== undefined && counting(bTasks.active).length === 0 && counting(bTasks.standby).length > 0) sawWarmups ??= bTasks;
    // A answered for all four counting tasks if it still runs them after the answer: it never gets one back.
    if (aTasks !== undefined && counting(aTasks.active).length < COUNTING.length) return true;
    if (aTasks !== undefined) answers.push(...answered);
    return false;
  }, { timeoutMs: 60_000, intervalMs: 50, what: "A to give a counting task up to B" });
  assert.ok(sawWarmups !== undefined, "B ran with warm-up replicas of counting tasks and none of them active");
  assert.ok(counting(sawWarmups.standby).length <= 2, `at most max.warmup.replicas (2) warm-ups: ${JSON.stringify(sawWarmups)}`);
  assert.ok(answers.length > 0, "A was asked while B warmed up");
  const failed = answers.filter((answer) => answer.status !== "SUCCESS" || answer.value !== 1 || !answer.localActive);
  assert.equal(failed, [], `of ${answers.length} answers from A while B warmed up`);

  // The probing rebalances hand B its half of the counting tasks, from its warm-ups.
  const layout = await eventually(async () => {
    const [aTasks, bTasks] = await Promise.all([tasksOf(a.url), tasksOf(b.url)]);
    return aTasks !== undefined && bTasks !== undefined && counting(aTasks.active).length === 2 && counting(bTasks.active).length === 2 && { a: aTasks, b: bTasks };
  }, { timeoutMs: 60_000, what: "two counting tasks on each instance" });
  assert.equal([...counting(layout.a.active), ...counting(layout.b.active)].sort(), COUNTING);

  // B serves its tasks with their full state: with A's, every count, exact; restored from the warm-ups, not from scratch.
  const served = await eventually(async () => {
    const [fromA, fromB] = await Promise.all([localCounts(a.url), localCounts(b.url)]);
    return fromA.status === "SUCCESS" && fromB.status === "SUCCESS" && { fromA, fromB };
  }, { timeoutMs: 30_000, what: "both instances answering their counts" });
  assert.ok(served.fromB.allLocalActive, "B answers from its own active tasks");
  const bKeys = Object.keys(served.fromB.counts).length;
  assert.ok(bKeys > 1500 && bKeys < 3500, `B holds about half of the 5000 keys: ${bKeys}`);
  assert.equal({ ...served.fromA.counts, ...served.fromB.counts }, truth);
  await untilExactCounts(b.url, "wordcount", lines);
  for (const entry of (await countsPartitions(b.url)).filter((partition) => !partition.standby)) {
    assert.ok(entry.log_end_offset > ACCEPTABLE_RECOVERY_LAG, `partition ${entry.partition}'s changelog holds ${entry.log_end_offset} records`);
    assert.ok(entry.restore.records_restored <= ACCEPTABLE_RECOVERY_LAG, `B restored ${entry.restore.records_restored} of ${entry.log_end_offset} records of partition ${entry.partition}`);
  }
  await Promise.all([a, b].map((instance) => stopProcess(instance.process, "SIGTERM")));
});

test.run();
