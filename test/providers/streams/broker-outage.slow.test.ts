import { suite } from "uvu";
import * as assert from "uvu/assert";
import { setTimeout as sleep } from "node:timers/promises";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { countsOf, lineFeeder, sorted, startWordcountCluster, trueCounts, type WordcountCluster } from "./wordcount-processes";

/*
 * The broker (a `sluice broker` child, file store) is SIGKILLed for 15 s while a `sluice start` child counts a
 * backlog of lines, then started again on the same port and data: the application rides it out — it never goes to
 * ERROR, its producer's retries span the outage (delivery.timeout.ms, 120 s) and its idempotent writes keep any
 * batch the broker stored before it died from being stored twice — and every count ends exact.
 */
const test = suite("wordcount rides out a broker killed for 15 s");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(4);
});
test.after(async () => {
  await cluster?.close();
});

const OUTAGE_MS = 15_000;

test("SIGKILL of the broker mid-stream and a restart 15 s later: no ERROR, exact counts", async () => {
  const { lines, produce: produceLines } = lineFeeder(cluster.producer);
  const instance = await cluster.start();
  const totalOf = async () => {
    const counts = await countsOf(instance.url);
    return counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : 0;
  };
  const stateOf = async () => ((await http(`${instance.url}/api/v1/streams/wordcount`)).json() as { state: { state: string }; exception?: string });

  await produceLines(100);
  await eventually(async () => (await totalOf()) === 500, { timeoutMs: 30_000, what: "the first 500 words counted" });
  for (let i = 0; i < 20; i++) await produceLines(100);
  await eventually(async () => (await totalOf()) > 1_000, { timeoutMs: 30_000, what: "the backlog being counted" });
  await cluster.killBroker();

  // The outage is the scenario itself: the application's state is watched throughout.
  const seen = new Set<string>();
  for (const until = Date.now() + OUTAGE_MS; Date.now() < until; await sleep(250)) {
    const state = await stateOf();
    seen.add(state.state.state);
    assert.is.not(state.state.state, "ERROR", `wordcount failed while the broker was down: ${state.exception}`);
  }
  await cluster.restartBroker();
  await produceLines(200);

  const expected = sorted(trueCounts(lines));
  const words = Object.values(expected).reduce((sum, count) => sum + count, 0);
  const caughtUp = await eventually(
    async () => {
      const state = await stateOf();
      assert.is.not(state.state.state, "ERROR", `wordcount failed after the broker came back: ${state.exception}`);
      const counts = await countsOf(instance.url);
      return counts && Object.values(counts).reduce((sum, count) => sum + count, 0) >= words && counts;
    },
    { timeoutMs: 90_000, intervalMs: 250, what: `wordcount to count ${words} words after the outage` },
  );
  assert.equal(sorted(caughtUp), expected);
  assert.is((await stateOf()).state.state, "RUNNING", `states seen during the outage: ${[...seen].join(", ")}`);
});

test.run();
