/*
 * Final results survive SIGKILLs (#35 point 3): a `sluice start` child runs a windowed count with
 * suppress(untilWindowCloses) while clicks keep arriving, and is SIGKILLed three times mid-stream, each time started
 * again on its state dir. The suppression buffer is a changelogged store restored with the others, so in the end
 * every window has emitted its final count — the true count of its clicks, what a clean run emits — and no window
 * has emitted a count that was not final: none lost, none early, none partial.
 *
 * What at_least_once allows, and no more: the outputs of the batch a kill interrupts before its commit are sent again
 * when the batch is processed again, so a window that closed in that batch emits its (same) final count twice. Under
 * exactly_once_v2 a read_committed reader sees exactly one final count per window.
 */
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Consumer } from "kafkajs";
import { eventually } from "../../helpers/eventually";
import { REPO_ROOT } from "../../helpers/sluice";
import { startWordcountCluster, stopProcess, type WordcountCluster, type WordcountInstance } from "./wordcount-processes";

const test = suite("suppress(untilWindowCloses) survives SIGKILL mid-stream");
const FIXTURE = path.join(REPO_ROOT, "test", "fixtures", "final-counts");
const FLAGS = [`--plugins.packages=${FIXTURE}`];
const USERS = 20;
const WINDOW_MS = 1000;
/** Event time advances 5 ms per click: a window holds 200 clicks, 10 per user. */
const STEP_MS = 5;
/**
 * Event time starts an hour ago, on a whole minute. Older times would fall behind the retention of the topics and of
 * the windowed changelogs, whose segments the broker deletes by their records' timestamps, as Kafka does; a fixed
 * date drifts there as the calendar moves on.
 */
const T0 = Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000;

let cluster: WordcountCluster | undefined;
let reader: Consumer | undefined;

test.after.each(async () => {
  await reader?.disconnect().catch(() => undefined);
  await cluster?.close();
  reader = undefined;
  cluster = undefined;
});

interface FinalCount {
  phase?: number;
  user: string;
  start: number;
  count: number;
}

/** Runs the scenario under `guarantee`; answers how many windows emitted their final count more than once. */
async function killedThrice(guarantee: "at_least_once" | "exactly_once_v2"): Promise<number> {
  const flags = [...FLAGS, `--streams.processing.guarantee=${guarantee}`];
  cluster = await startWordcountCluster(1);
  const admin = cluster.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "clicks", numPartitions: 4 }, { topic: "final-counts", numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();

  // Idempotent, so that a retried send does not count a click twice.
  const producer = cluster.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const truth = new Map<string, number>();
  let seq = 0;
  const produce = async (count: number) => {
    const messages = Array.from({ length: count }, (_, i) => {
      const n = seq + i;
      return { key: `user${n % USERS}`, value: String(n), timestamp: String(T0 + n * STEP_MS) };
    });
    await producer.send({ topic: "clicks", messages, acks: -1 });
    for (const { key, timestamp } of messages) {
      const window = `${key}@${Math.floor(Number(timestamp) / WINDOW_MS) * WINDOW_MS}`;
      truth.set(window, (truth.get(window) ?? 0) + 1);
    }
    seq += count;
  };

  const emitted: FinalCount[] = [];
  let phase = 0;
  reader = cluster.kafka.consumer({ groupId: "final-counts-reader", maxWaitTimeInMs: 100, readUncommitted: false });
  await reader.connect();
  await reader.subscribe({ topics: ["final-counts"], fromBeginning: true });
  await reader.run({
    eachMessage: async ({ message }) => {
      const key = message.key!;
      emitted.push({ phase, user: key.subarray(0, key.length - 8).toString("utf8"), start: Number(key.readBigInt64BE(key.length - 8)), count: Number(message.value!.readBigInt64BE()) });
    },
  });

  let instance: WordcountInstance = await cluster.start(undefined, undefined, flags);
  let producing = true;
  const stream = (async () => {
    while (producing) {
      await produce(40);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const progress = async (what: string) => {
    const before = emitted.length;
    await eventually(() => emitted.length >= before + 2 * USERS, { timeoutMs: 60_000, intervalMs: 50, what });
  };
  for (let kill = 1; kill <= 3; kill++) {
    await progress(`final counts before kill ${kill}`);
    await stopProcess(instance.process, "SIGKILL");
    assert.is(instance.process.child.signalCode, "SIGKILL");
    phase = kill;
    instance = await cluster.start(instance.stateDir, undefined, flags);
  }
  await progress("final counts after the last restart");
  producing = false;
  await stream;
  // A click far ahead in every partition closes every window there (the closer's own window stays open).
  const closing = T0 + seq * STEP_MS + 10 * WINDOW_MS;
  await producer.send({ topic: "clicks", messages: [0, 1, 2, 3].map((partition) => ({ key: "closer", value: "x", partition, timestamp: String(closing) })), acks: -1 });

  const windowOf = (count: FinalCount) => `${count.user}@${count.start}`;
  await eventually(() => [...truth.keys()].every((window) => emitted.some((count) => windowOf(count) === window)), {
    timeoutMs: 90_000,
    intervalMs: 200,
    what: `all ${truth.size} windows' final counts (${new Set(emitted.map(windowOf)).size} so far)`,
  });
  const byWindow = new Map<string, number[]>();
  for (const count of emitted) byWindow.set(windowOf(count), [...(byWindow.get(windowOf(count)) ?? []), count.count]);
  const wrong = [...byWindow].filter(([window, counts]) => counts.some((count) => count !== truth.get(window)));
  assert.equal(wrong, [], "windows that emitted a count other than their true one");
  assert.is(byWindow.size, truth.size);
  // Repeats come from the batches the kills interrupted: a clean run (no kill) emits each window once.
  const repeated = [...byWindow].filter(([, counts]) => counts.length > 1).length;
  console.log(`  ${truth.size} windows, each emitted its true count; ${repeated} emitted it again after a kill (${guarantee})`);
  await stopProcess(instance.process, "SIGTERM");
  await producer.disconnect();
  return repeated;
}

test("at_least_once: three SIGKILLs later every window has emitted its true count, and nothing else", async () => {
  await killedThrice("at_least_once");
});

test("exactly_once_v2: three SIGKILLs later every window has emitted its true count exactly once", async () => {
  assert.is(await killedThrice("exactly_once_v2"), 0, "windows whose final count a read_committed reader saw twice");
});

test.run();
