import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { committedRecords, countsWrittenTwice, longsByKey } from "./committed-outputs";
import { ALL_TASKS, activeTasks, lineFeeder, membersBySplit, sorted, startWordcountCluster, trueCounts, untilExactCounts, type WordcountCluster, type WordcountInstance } from "./wordcount-processes";

/*
 * Two `sluice start` children share wordcount under exactly_once_v2, as in wordcount-zombie: the one that only counts
 * (task 1_0 or 1_1, or both) is stopped (SIGSTOP) past its session with a transaction open, while lines keep coming,
 * and continued (SIGCONT). Kafka fences it either way, and it learns so, drops its transaction's work and joins
 * again; the counts stay exact on both, and no count reaches word-counts twice:
 *  - by its group generation (KIP-447): its transaction outlives the stop, and the offsets it commits with it are
 *    refused; the other member's restore waits for that transaction to end;
 *  - by its producer's epoch: its transaction times out first, its coordinator aborts it and fences the producer.
 * Both members commit every few seconds, so that the stopped one holds a transaction open.
 */
const test = suite("a zombie member of wordcount under exactly_once_v2");
let cluster: WordcountCluster;
const EOS = ["--streams.processing.guarantee=exactly_once_v2"];

test.before.each(async () => {
  cluster = await startWordcountCluster(2);
  const admin = cluster.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "word-counts", numPartitions: 2 }], waitForLeaders: true });
  await admin.disconnect();
});
test.after.each(async () => {
  await cluster?.close();
});

/** How many members the group has now. */
async function groupSize(): Promise<number> {
  const admin = cluster.kafka.admin();
  await admin.connect();
  try {
    return (await admin.describeGroups(["wordcount"])).groups[0].members.length;
  } finally {
    await admin.disconnect();
  }
}

/**
 * Starts two members with `flags` (a commit interval long enough that a member holds a transaction open whenever
 * it is stopped), stops the one that only counts while lines arrive, waits for `whileStopped`, continues it and waits for
 * it to report its transaction lost; answers that report's error.
 */
async function zombieScenario(flags: string[], whileStopped: (other: WordcountInstance) => Promise<unknown>): Promise<string> {
  const feeder = lineFeeder(cluster.producer, 0);
  const members = [await cluster.start(undefined, undefined, flags), await cluster.start(undefined, undefined, flags)];
  await feeder.produce(200);
  await untilExactCounts(members[0].url, "wordcount", feeder.lines);
  const [zombie, other] = await membersBySplit(members);
  let feeding = true;
  const flow = (async () => {
    while (feeding) await feeder.produce(20);
  })();
  let lost: string;
  try {
    zombie.process.child.kill("SIGSTOP");
    await whileStopped(other);
    zombie.process.child.kill("SIGCONT");
    const report = await eventually(() => zombie.process.logs().find((line) => line.msg === "the transaction failed; its work is dropped, and the tasks are taken again from the last commit"), {
      timeoutMs: 60_000,
      what: "the continued member to learn its transaction was lost",
    });
    lost = String(report.error);
  } finally {
    zombie.process.child.kill("SIGCONT");
    feeding = false;
    await flow;
  }
  await feeder.produce(50);
  await untilExactCounts(other.url, "wordcount", feeder.lines);
  await untilExactCounts(zombie.url, "wordcount", feeder.lines);
  assert.ok(await activeTasks(zombie.url), "the continued member runs again");
  const expected = sorted(trueCounts(feeder.lines));
  const outputs = await eventually(async () => {
    const byWord = longsByKey(await committedRecords(cluster.bootstrap, "word-counts"));
    return Object.entries(expected).every(([word, count]) => byWord.get(word)?.at(-1) === count) && byWord;
  }, { timeoutMs: 30_000, what: "every word's last committed count to be its true count" });
  assert.equal(countsWrittenTwice(outputs), [], "no count written twice");
  return lost;
}

test("fenced by its generation: the offsets of its late transaction are refused", async () => {
  const error = await zombieScenario([...EOS, "--streams.commit.interval.ms=5000", "--streams.transaction.timeout.ms=120000"], () => eventually(async () => (await groupSize()) === 1, { timeoutMs: 30_000, what: "the group to drop the stopped member" }));
  assert.match(error, /sendOffsetsToTransaction failed \(abortable\): (UNKNOWN_MEMBER_ID|ILLEGAL_GENERATION)/, error);
});

test("fenced by its producer's epoch: its transaction timed out and was aborted", async () => {
  const error = await zombieScenario([...EOS, "--streams.commit.interval.ms=1500", "--streams.transaction.timeout.ms=2000"], async (other) => {
    await eventually(async () => (await activeTasks(other.url))?.join() === ALL_TASKS, { timeoutMs: 60_000, what: "the other member to take every task over" });
    // The broker looks for timed-out transactions every 10 s: the other member may take over before it aborts this one.
    await eventually(() => cluster.brokerLogs().some((line) => line.msg === "aborting a transaction and fencing its producer"), {
      timeoutMs: 30_000,
      what: "the broker to abort the stopped member's timed-out transaction",
    });
  });
  assert.match(error, /(PRODUCER_FENCED|INVALID_PRODUCER_EPOCH)/, error);
});

test.run();
