import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { committedRecords, countsWrittenTwice, longsByKey } from "./committed-outputs";
import { ALL_TASKS, activeTasks, lineFeeder, membersBySplit, sorted, startWordcountCluster, stoppedWhileFeeding, trueCounts, untilExactCounts, type WordcountCluster, type WordcountInstance } from "./wordcount-processes";

/*
 * Two `sluice start` children share wordcount under exactly_once_v2, as in wordcount-zombie: the one that only counts
 * (task 1_0 or 1_1, or both) is stopped (SIGSTOP) past its session with a transaction open, while lines keep coming,
 * and continued (SIGCONT). Kafka fences it either way, and it learns so, drops its transaction's work and joins
 * again; the counts stay exact on both, and no count reaches word-counts twice:
 *  - by its group generation (KIP-447): its transaction outlives the stop, and the offsets it commits with it are
 *    refused, or a heartbeat tells it first that it is out of the group and it aborts the transaction as lost; the
 *    other member's restore waits for that transaction to end;
 *  - by its producer's epoch: its transaction times out first, its coordinator aborts it and fences the producer.
 * Both members commit every few seconds; the stopped one holds a transaction open.
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
 * Whether `member` holds work it has not committed, its last commit at most `withinMs` ago: with its counts leaving as
 * they are made (no record cache), its transaction is open, and its next commit is at least commit.interval.ms after
 * the last one.
 */
async function midTransaction(member: WordcountInstance, withinMs: number): Promise<boolean> {
  const response = await http(`${member.url}/api/v1/streams/wordcount/offsets`);
  if (response.status !== 200) return false;
  type Position = { topic: string; consumed_offset: number; committed_offset: number; committed_timestamp: number };
  const { consumers = [] } = response.json() as { consumers?: { positions: Position[] }[] };
  const positions = consumers.flatMap((consumer) => consumer.positions);
  return positions.some((position) => position.topic.endsWith("-repartition") && position.committed_offset >= 0 && position.consumed_offset + 1 > position.committed_offset && Date.now() - position.committed_timestamp < withinMs);
}

const TRANSACTION_LOST = "the transaction failed; its work is dropped, and the tasks are taken again from the last commit";
/** Its heartbeat answered first that it is out of the group: it aborts its transaction without trying to commit it. */
const PARTITIONS_LOST = "this member's partitions were lost (it is out of its generation, or lost its work); dropping their uncommitted work and joining again";

/**
 * Starts two members with `flags`, stops the one that only counts while lines arrive (once `stopWhen` holds, if
 * given), waits for `whileStopped`, continues it and waits for it to report its transaction lost; answers that
 * report's error.
 */
async function zombieScenario(flags: string[], whileStopped: (other: WordcountInstance) => Promise<unknown>, stopWhen?: (zombie: WordcountInstance) => Promise<boolean>): Promise<string> {
  const feeder = lineFeeder(cluster.producer, 0);
  const members = [await cluster.start(undefined, undefined, flags), await cluster.start(undefined, undefined, flags)];
  await feeder.produce(200);
  await untilExactCounts(members[0].url, "wordcount", feeder.lines);
  const [zombie, other] = await membersBySplit(members);
  const lost = await (async () => stoppedWhileFeeding(feeder, zombie, other, async () => {
    await whileStopped(other);
    zombie.process.child.kill("SIGCONT");
    const report = await eventually(() => zombie.process.logs().find((line) => line.msg === TRANSACTION_LOST || (line.msg === PARTITIONS_LOST && line.groupId === "wordcount")), {
      timeoutMs: 60_000,
      what: "the continued member to learn its transaction was lost",
    });
    return report.msg === TRANSACTION_LOST ? String(report.error) : PARTITIONS_LOST;
  }, stopWhen && (() => stopWhen(zombie))))().catch((error: Error) => {
    console.error("the broker's last logged errors:", JSON.stringify(cluster.brokerLogs().filter((line) => line.level === "error").slice(-3)));
    throw error;
  });
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
  // Which it learns first is a race of its own timers: its commit refused, or a heartbeat (the group dropped it above).
  if (error !== PARTITIONS_LOST) assert.match(error, /sendOffsetsToTransaction failed \(abortable\): (UNKNOWN_MEMBER_ID|ILLEGAL_GENERATION)/, error);
});

test("fenced by its producer's epoch: its transaction timed out and was aborted", async () => {
  // Without a record cache its counts leave as they are made, so it is stopped within a transaction: one that has
  // consumed past its last commit, made under 700 ms ago (its next is due 1,500 ms after it at the earliest).
  const flags = [...EOS, "--streams.commit.interval.ms=1500", "--streams.transaction.timeout.ms=2000", "--streams.statestore.cache.max.bytes=0"];
  const error = await zombieScenario(flags, async (other) => {
    await eventually(async () => (await activeTasks(other.url))?.join() === ALL_TASKS, { timeoutMs: 60_000, what: "the other member to take every task over" });
    // The broker looks for timed-out transactions every 10 s: the other member may take over before it aborts this one.
    await eventually(() => cluster.brokerLogs().some((line) => line.msg === "aborting a transaction and fencing its producer"), {
      timeoutMs: 30_000,
      what: "the broker to abort the stopped member's timed-out transaction",
    });
  }, (zombie) => midTransaction(zombie, 700));
  assert.match(error, /(PRODUCER_FENCED|INVALID_PRODUCER_EPOCH)/, error);
});

test.run();
