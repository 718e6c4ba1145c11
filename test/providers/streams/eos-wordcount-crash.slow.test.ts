import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { committedRecords, countsWrittenTwice, longsByKey } from "./committed-outputs";
import { countsOf, lineFeeder, sorted, startWordcountCluster, stopProcess, trueCounts, type WordcountCluster } from "./wordcount-processes";

/*
 * wordcount with processing.guarantee=exactly_once_v2, a `sluice start` child SIGKILLed while lines keep arriving,
 * then started again on the same state dir. Once it has caught up, its store holds the true counts, and a
 * read_committed reader of word-counts sees each word's counts go up one commit after another — nothing written
 * before the kill is written again — ending at the true count.
 */
const test = suite("wordcount under exactly_once_v2 survives SIGKILL mid-stream");
let cluster: WordcountCluster;
const EOS = ["--streams.processing.guarantee=exactly_once_v2"];

test.before(async () => {
  cluster = await startWordcountCluster(4);
  const admin = cluster.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "word-counts", numPartitions: 3 }], waitForLeaders: true });
  await admin.disconnect();
});
test.after(async () => {
  await cluster?.close();
});

test("after kill -9 and a restart, the store and the committed outputs are exact", async () => {
  const { lines, produce: produceLines } = lineFeeder(cluster.producer);
  const first = await cluster.start(undefined, undefined, EOS);
  const description = (await http(`${first.url}/api/v1/streams/wordcount`)).json() as { config: Record<string, unknown> };
  assert.is(description.config["processing.guarantee"], "exactly_once_v2", "the description shows the guarantee");

  const totalOf = async (url: string) => Object.values((await countsOf(url)) ?? {}).reduce((sum, count) => sum + count, 0);
  await produceLines(100);
  await eventually(async () => (await totalOf(first.url)) === 500, { timeoutMs: 30_000, what: "the first 500 words counted" });
  let producing = true;
  const stream = (async () => {
    while (producing) await produceLines(50);
  })();
  const seenBeforeKill = await eventually(async () => {
    const total = await totalOf(first.url);
    return total > 2_000 && total;
  }, { timeoutMs: 30_000, what: "counting to go on while lines arrive" });
  await stopProcess(first.process, "SIGKILL");
  for (let i = 0; i < 5; i++) await produceLines(100);
  producing = false;
  await stream;
  const expected = sorted(trueCounts(lines));
  const words = Object.values(expected).reduce((sum, count) => sum + count, 0);
  assert.ok(seenBeforeKill < words, `killed after ${seenBeforeKill} of ${words} words`);

  const second = await cluster.start(first.stateDir, undefined, EOS);
  await eventually(async () => (await totalOf(second.url)) >= words, { timeoutMs: 60_000, intervalMs: 200, what: `the restarted instance to count ${words} words` });
  assert.equal(sorted((await countsOf(second.url))!), expected);

  const outputs = await eventually(async () => {
    const byWord = longsByKey(await committedRecords(cluster.bootstrap, "word-counts"));
    return Object.entries(expected).every(([word, count]) => byWord.get(word)?.at(-1) === count) && byWord;
  }, { timeoutMs: 30_000, what: "every word's last committed count to be its true count" });
  assert.equal(countsWrittenTwice(outputs), [], "no count written twice");
  assert.equal([...outputs.keys()].sort(), Object.keys(expected), "no other word");
});

test.run();
