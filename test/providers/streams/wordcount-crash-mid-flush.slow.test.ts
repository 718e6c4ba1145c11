import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { FIXTURES } from "../../helpers/sluice";
import { countsOf, sorted, startWordcountCluster, stopProcess, trueCounts, type WordcountCluster } from "./wordcount-processes";

/*
 * A `sluice start` child running wordcount with a large record cache is SIGKILLed while a commit writes the
 * flush of hundreds of folded counts or more: the flush has gone downstream and to the changelog, the store's batch
 * is being written (a test-only LevelDB config setter holds it, and logs when it does). Started again on the
 * same state dir, without the setter, every count is the true count.
 */
const test = suite("wordcount survives SIGKILL in the middle of a record cache flush");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(2);
});
test.after(async () => {
  await cluster?.close();
});

const STALLING_SETTER = `--streams.leveldb.config.setter=${path.join(FIXTURES, "stalled-commit", "stall-commits.js")}#setter`;

test("after kill -9 during a flush's commit and a restart, every count equals the true count", async () => {
  const lines: string[] = [];
  const produceLines = async (batch: string[]) => {
    lines.push(...batch);
    await cluster.producer.send({ topic: "words", messages: batch.map((value) => ({ value })), acks: -1 });
  };
  const total = (counts: Record<string, number> | undefined) => (counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : 0);

  const first = await cluster.start(undefined, undefined, [STALLING_SETTER, "--streams.statestore.cache.max.bytes=104857600"], { SLUICE_STALL_COMMIT_WRITES: "500" });
  await produceLines(Array.from({ length: 50 }, (_, i) => `small${i % 10} batch`));
  await eventually(async () => total(await countsOf(first.url)) === 100, { timeoutMs: 30_000, what: "the small commits to be counted" });
  // 6,000 distinct words: a count task's flush writes hundreds of rows or more in one commit, which the setter stalls.
  await produceLines(Array.from({ length: 1_200 }, (_, i) => Array.from({ length: 5 }, (_, j) => `w${i * 5 + j}`).join(" ")));
  const stalled = await eventually(() => first.process.logs().find((line) => line.msg === "commit stalled"), { timeoutMs: 30_000, what: "a large flush's commit to stall" });
  assert.ok((stalled.writes as number) >= 500);
  await stopProcess(first.process, "SIGKILL");
  await produceLines(Array.from({ length: 100 }, (_, i) => `w${i} small${i % 10}`));

  const expected = sorted(trueCounts(lines));
  const words = total(expected);
  const second = await cluster.start(first.stateDir);
  const caughtUp = await eventually(
    async () => {
      const counts = await countsOf(second.url);
      return total(counts) >= words && counts;
    },
    { timeoutMs: 60_000, intervalMs: 200, what: `the restarted instance to count ${words} words` },
  );
  assert.equal(sorted(caughtUp), expected);
});

test.run();
