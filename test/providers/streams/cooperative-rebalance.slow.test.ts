import { suite } from "uvu";
import * as assert from "uvu/assert";
import { partitionOfKey } from "../../../providers/kafka-client/murmur2-partitioner";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { activeTasks, lineFeeder, startWordcountCluster, untilExactCounts, type WordcountCluster, type WordcountInstance } from "./wordcount-processes";

/*
 * Cooperative rebalancing (KIP-429) as users run it: two `sluice start` processes run wordcount under a steady feed of
 * lines on a standalone `sluice broker`, and a third joins. Only the third's share of the tasks moves; the tasks that
 * stay keep processing (their input's committed offsets keep advancing) and restore nothing, and their keys keep
 * answering queries with SUCCESS; the counts stay exact.
 */
const test = suite("cooperative rebalancing of sluice processes");
const PARTITIONS = 4;
const WORDS = Array.from({ length: 40 }, (_, i) => `word${i}`);
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(PARTITIONS);
});
test.after(async () => {
  await cluster?.close();
});

/** restore planned is logged at debug: the instances log at debug to show every restore. */
const instance = () => cluster.start(undefined, undefined, ["--log.level=debug"]);

const restores = (member: WordcountInstance) => member.process.logs().filter((line) => line.msg === "restore planned" && line.store === "counts");

async function statusOfGet(url: string, word: string): Promise<string> {
  const response = await http(`${url}/api/v1/applications/wordcount/stores/counts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", query: { get: { key: word } } }),
  });
  return response.status === 200 ? String((response.json() as { status: string }).status) : `HTTP ${response.status}`;
}

/** wordcount's committed offsets of `words`, by partition. */
async function committedWords(admin: ReturnType<WordcountCluster["kafka"]["admin"]>): Promise<Map<number, number>> {
  const [{ partitions }] = await admin.fetchOffsets({ groupId: "wordcount", topics: ["words"] });
  return new Map(partitions.map((partition) => [partition.partition, Number(partition.offset)]));
}

test("a third instance joins under load: the tasks that stay keep processing and answering, nothing of theirs restores", async () => {
  const feeder = lineFeeder(cluster.producer);
  const [a, b] = await Promise.all([instance(), instance()]);
  const before = await eventually(async () => {
    const tasks = await Promise.all([a, b].map((member) => activeTasks(member.url)));
    return tasks.every((list) => list !== undefined && list.length === PARTITIONS) && (tasks as string[][]);
  }, { timeoutMs: 60_000, what: "the eight tasks split four and four" });
  await feeder.produce(100);
  await untilExactCounts(a.url, "wordcount", feeder.lines);
  const restoresBefore = [a, b].map((member) => restores(member).length);

  let feeding = true;
  const flow = (async () => {
    while (feeding) {
      await feeder.produce(10);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  // Throughout the join: each instance's counting keys (tasks 1_<partition>) asked at that instance, and the group's
  // commits of words sampled.
  const answers = new Map<string, number>();
  const samples: { at: number; offsets: Map<number, number>; ends: Map<number, number> }[] = [];
  let watching = true;
  const admin = cluster.kafka.admin();
  await admin.connect();
  const watch = (async () => {
    while (watching) {
      for (const [index, member] of [a, b].entries()) {
        const words = WORDS.filter((word) => before[index].includes(`1_${partitionOfKey(word, PARTITIONS)}`));
        for (const status of await Promise.all(words.map((word) => statusOfGet(member.url, word).then((answer) => `${word}@${index}: ${answer}`)))) answers.set(status, (answers.get(status) ?? 0) + 1);
      }
      const offsets = await committedWords(admin);
      const ends = new Map((await admin.fetchTopicOffsets("words")).map((end) => [end.partition, Number(end.high)]));
      samples.push({ at: Date.now(), offsets, ends });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  let c: WordcountInstance;
  let after: string[][];
  try {
    c = await instance();
    after = await eventually(async () => {
      const tasks = await Promise.all([a, b, c].map((member) => activeTasks(member.url)));
      if (tasks.some((list) => list === undefined)) return false;
      return tasks.flatMap((list) => list!).length === 2 * PARTITIONS && tasks[2]!.length > 0 && (tasks as string[][]);
    }, { timeoutMs: 60_000, what: "the eight tasks split over three instances" });
  } finally {
    watching = false;
    await watch;
    feeding = false;
    await flow;
    await admin.disconnect();
  }
  assert.equal(after.map((tasks) => tasks.length).sort(), [2, 3, 3]);
  // a and b keep three of their four tasks each; c has the two that moved.
  for (const index of [0, 1]) for (const task of after[index]) assert.ok(before[index].includes(task), `${task} stayed`);
  assert.equal([a, b].map((member, index) => restores(member).length - restoresBefore[index]), [0, 0], "no restore on the instances that only gave tasks up");
  const failed = [...answers.keys()].filter((answer) => !answer.endsWith("SUCCESS"));
  // A key whose counting task moved to c may answer otherwise once it moved; those of the tasks that stayed never do.
  const stayed = failed.filter((answer) => {
    const [word, owner] = answer.split(":")[0].split("@");
    return after[Number(owner)].includes(`1_${partitionOfKey(word, PARTITIONS)}`);
  });
  assert.equal(stayed, [], "the keys of the tasks that stayed answered SUCCESS throughout");
  assert.ok(answers.size > 0);
  // The words partitions of the splitting tasks that stayed (0_<partition>) kept being committed further.
  const kept = [0, 1].flatMap((index) => after[index].filter((task) => task.startsWith("0_")).map((task) => Number(task.slice(2))));
  let longestStallMs = 0;
  let largestLag = 0;
  for (const partition of kept) {
    for (const sample of samples) largestLag = Math.max(largestLag, (sample.ends.get(partition) ?? 0) - (sample.offsets.get(partition) ?? 0));
    let since = samples[0].at;
    for (let i = 1; i < samples.length; i++) {
      if (samples[i].offsets.get(partition) !== samples[i - 1].offsets.get(partition)) since = samples[i].at;
      longestStallMs = Math.max(longestStallMs, samples[i].at - since);
    }
    assert.ok(new Set(samples.map((sample) => sample.offsets.get(partition))).size > 2, `words-${partition} committed further during the join`);
  }
  const keptAnswers = [...answers].filter(([answer]) => {
    const [word, owner] = answer.split(":")[0].split("@");
    return after[Number(owner)].includes(`1_${partitionOfKey(word, PARTITIONS)}`);
  });
  const keptQueries = keptAnswers.reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `cooperative rebalance: ${samples.length} samples over ${samples.at(-1)!.at - samples[0].at} ms; longest stall of a kept partition's commits: ${longestStallMs} ms, its largest lag ${largestLag} records; ` +
      `queries of the kept tasks' keys: ${keptQueries}, all SUCCESS`,
  );
  await feeder.produce(50);
  for (const member of [a, b, c!]) await untilExactCounts(member.url, "wordcount", feeder.lines);
});

test.run();
