import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { countsOf, sorted, startWordcountCluster, stopProcess, trueCounts, type WordcountCluster } from "./wordcount-processes";

/*
 * Two `sluice start` processes running wordcount against one standalone broker split the four partitions of
 * `words`; each lists both instances with their application.server and partitions; when one stops, the
 * other takes its partitions and their counts (restored from the changelog) and keeps counting right.
 */
const test = suite("wordcount in two sluice processes");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(4);
});
test.after(async () => {
  await cluster?.close();
});

interface Instance {
  server: string;
  is_local: boolean;
  stores: string[];
  assignments: { topic: string; partitions: number[] }[];
}

async function instancesSeenBy(url: string): Promise<Instance[]> {
  const response = await http(`${url}/api/v1/applications/wordcount`);
  if (response.status !== 200) throw new Error(`GET /api/v1/applications/wordcount answered ${response.status}`);
  return (response.json() as { instances: Instance[] }).instances;
}

const wordsPartitions = (instance: Instance) => instance.assignments.find((entry) => entry.topic === "words")?.partitions ?? [];

const LINES = Array.from({ length: 200 }, (_, i) => `alpha beta${i % 17} gamma${i % 5} delta${i % 31}`);

test("they split the partitions, list each other, and the survivor of a stop takes partitions and counts", async () => {
  const [a, b] = await Promise.all([cluster.start(), cluster.start()]);
  let lastSeen: Instance[][] = [];
  const split = await eventually(
    async () => {
      const seen = await Promise.all([a, b].map((instance) => instancesSeenBy(instance.url)));
      lastSeen = seen;
      const complete = seen.every((list) => list.length === 2 && list.every((instance) => wordsPartitions(instance).length === 2));
      return complete && seen;
    },
    { timeoutMs: 30_000, intervalMs: 100, what: "both instances listing two instances with two partitions each" },
  ).catch((error: Error) => {
    // What each saw last, and what the children logged about wordcount, to tell a slow machine from a stuck group.
    const notes = [a, b].map((instance) => instance.process.logs().filter((line) => line.level !== "info" || String(line.applicationId) === "wordcount"));
    throw new Error(`${error.message}; last seen ${JSON.stringify(lastSeen)}; logs ${JSON.stringify(notes)}`);
  });
  for (const [index, seen] of split.entries()) {
    const self = [a, b][index];
    assert.equal(seen.map((instance) => instance.server).sort(), [a.server, b.server].sort());
    assert.equal(seen.filter((instance) => instance.is_local).map((instance) => instance.server), [self.server]);
    assert.ok(seen.every((instance) => instance.stores.includes("counts")));
    assert.equal(seen.flatMap(wordsPartitions).sort(), [0, 1, 2, 3]);
  }
  assert.equal(split[0].map((instance) => [instance.server, wordsPartitions(instance)]).sort(), split[1].map((instance) => [instance.server, wordsPartitions(instance)]).sort());

  await cluster.producer.send({ topic: "words", messages: LINES.slice(0, 100).map((value) => ({ value })), acks: -1 });
  const firstHalf = sorted(trueCounts(LINES.slice(0, 100)));
  await eventually(async () => JSON.stringify(sorted((await countsOf(a.url)) ?? {})) === JSON.stringify(firstHalf), {
    timeoutMs: 30_000,
    what: "the first 100 lines counted across both instances",
  });

  await stopProcess(b.process, "SIGTERM");
  assert.is(b.process.child.exitCode, 0);
  const alone = await eventually(
    async () => {
      const seen = await instancesSeenBy(a.url);
      return seen.length === 1 && wordsPartitions(seen[0]).length === 4 && seen[0];
    },
    { timeoutMs: 30_000, intervalMs: 100, what: "the survivor owning every partition" },
  );
  assert.is(alone.server, a.server);
  assert.ok(alone.is_local);

  await cluster.producer.send({ topic: "words", messages: LINES.slice(100).map((value) => ({ value })), acks: -1 });
  const everything = sorted(trueCounts(LINES));
  const words = Object.values(everything).reduce((sum, count) => sum + count, 0);
  const counted = await eventually(
    async () => {
      const counts = await countsOf(a.url);
      return counts && Object.values(counts).reduce((sum, count) => sum + count, 0) >= words && counts;
    },
    { timeoutMs: 30_000, what: "the survivor to count all 200 lines" },
  );
  assert.equal(sorted(counted), everything);
});

test.run();
