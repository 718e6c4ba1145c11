import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { countsOf, lineFeeder, sorted, startWordcountCluster, stopProcess, trueCounts, type WordcountCluster } from "./wordcount-processes";

/*
 * A `sluice start` child running wordcount is SIGKILLed while lines keep arriving, then started again on the
 * same state dir: once it has caught up, every count is the true count of everything produced — no batch
 * applied twice, none lost.
 */
const test = suite("wordcount survives SIGKILL mid-stream");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(4);
});
test.after(async () => {
  await cluster?.close();
});

test("after kill -9 and restart on the same state, every count equals the true count", async () => {
  const { lines, produce: produceLines } = lineFeeder(cluster.producer);

  const first = await cluster.start();
  const totalOf = async () => {
    const counts = await countsOf(first.url);
    return counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : 0;
  };
  await produceLines(100);
  await eventually(async () => (await totalOf()) === 500, { timeoutMs: 30_000, what: "the first 500 words counted" });
  // Lines keep coming while the instance counts: it dies with input fetched, processed or half-committed.
  let producing = true;
  const stream = (async () => {
    while (producing) await produceLines(50);
  })();
  const seenBeforeKill = await eventually(async () => {
    const total = await totalOf();
    return total > 2_000 && total;
  }, { timeoutMs: 30_000, what: "counting to go on while lines arrive" });
  await stopProcess(first.process, "SIGKILL");
  assert.is(first.process.child.signalCode, "SIGKILL");
  for (let i = 0; i < 5; i++) await produceLines(100);
  producing = false;
  await stream;
  const expected = sorted(trueCounts(lines));
  const words = Object.values(expected).reduce((sum, count) => sum + count, 0);
  assert.ok(seenBeforeKill < words, `killed after ${seenBeforeKill} of ${words} words`);

  const second = await cluster.start(first.stateDir);
  const caughtUp = await eventually(
    async () => {
      const counts = await countsOf(second.url);
      return counts && Object.values(counts).reduce((sum, count) => sum + count, 0) >= words && counts;
    },
    { timeoutMs: 60_000, intervalMs: 200, what: `the restarted instance to count ${words} words` },
  );
  assert.equal(sorted(caughtUp), expected);
});

test.run();
