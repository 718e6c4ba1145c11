import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { activeTasks, lineFeeder, membersBySplit, startWordcountCluster, untilExactCounts, type WordcountCluster } from "./wordcount-processes";

/*
 * Two `sluice start` children share wordcount: one splits the lines of the one `words` partition (task 0_0) and
 * counts half the words (1_0), the other counts the other half (1_1; the repartition topic has two partitions).
 * The one that only counts is stopped (SIGSTOP) past its session while lines keep coming, so the other
 * takes its task over, then continued (SIGCONT): its fetch in flight has been answered meanwhile, so it resumes as
 * a zombie, counts those words and writes its changelog after the new owner's fence. It must notice (its records
 * did not land right after its own), commit nothing, and join again; the counts stay exact on both.
 */
const test = suite("a zombie member of wordcount");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(1);
  const admin = cluster.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "wordcount-words-by-word-repartition", numPartitions: 2 }], waitForLeaders: true });
  await admin.disconnect();
});
test.after(async () => {
  await cluster?.close();
});

test("a member continued after its tasks moved on commits nothing of its late work, rejoins, and every count stays exact", async () => {
  const feeder = lineFeeder(cluster.producer);
  const members = [await cluster.start(), await cluster.start()];
  await feeder.produce(200);
  await untilExactCounts(members[0].url, "wordcount", feeder.lines);
  const [zombie, other] = await membersBySplit(members);

  let feeding = true;
  const flow = (async () => {
    while (feeding) await feeder.produce(20);
  })();
  try {
    zombie.process.child.kill("SIGSTOP");
    await eventually(async () => (await activeTasks(other.url))?.join() === "0_0,1_0,1_1", { timeoutMs: 30_000, what: "the other member to take every task over" });
    zombie.process.child.kill("SIGCONT");
    await eventually(() => zombie.process.logs().some((line) => line.msg === "this member lost what it was processing to another; joining the group again"), {
      timeoutMs: 30_000,
      what: "the continued member to find its late commit landed after another's fence",
    });
  } finally {
    zombie.process.child.kill("SIGCONT");
    feeding = false;
    await flow;
  }
  await feeder.produce(50);
  await untilExactCounts(other.url, "wordcount", feeder.lines);
  await untilExactCounts(zombie.url, "wordcount", feeder.lines);
  assert.ok(await activeTasks(zombie.url), "the continued member runs again");
});

test.run();
