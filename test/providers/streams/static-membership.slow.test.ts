import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { activeTasks, ALL_TASKS, lineFeeder, startWordcountCluster, stopProcess, untilExactCounts, type WordcountCluster, type WordcountInstance } from "./wordcount-processes";

/*
 * Static membership (KIP-345, `streams.group.instance.id`) as users run it: `sluice start` processes running
 * wordcount against a standalone `sluice broker`. An instance stopped with SIGTERM and started again on its state dir
 * within the session timeout gets its tasks back without a rebalance: the broker's generation of the group stays,
 * and the other instance stays RUNNING with its tasks. A second instance with the same id fences the first.
 */
const test = suite("static membership of sluice processes");
let cluster: WordcountCluster;

test.before(async () => {
  // The broker's debug log tells each generation of the group it completes.
  cluster = await startWordcountCluster(2, ["--log.level=debug"]);
});
test.after(async () => {
  await cluster?.close();
});

/** Long enough for a process to restart on this busy machine; also how long a crashed instance's tasks would wait. */
const SESSION_TIMEOUT = "--streams.session.timeout.ms=30000";

const staticInstance = (id: string, stateDir?: string, port = 0) =>
  // restart.on.error=backoff: a fenced instance must still not restart by itself and fence the twin in turn.
  cluster.start(stateDir, undefined, [`--streams.group.instance.id=${id}`, SESSION_TIMEOUT, `--server.port=${port}`, "--streams.restart.on.error=backoff"]);

/** The generations of wordcount's group the broker completed, in order. */
const generations = () =>
  cluster
    .brokerLogs()
    .filter((line) => line.msg === "group join phase completed" && line.groupId === "wordcount")
    .map((line) => line.generationId as number);

/** Waits until wordcount's group has committed the end of every partition of `words`. */
async function untilWordsCommitted(): Promise<void> {
  const admin = cluster.kafka.admin();
  await admin.connect();
  try {
    const ends = (await admin.fetchTopicOffsets("words")).map((partition) => `${partition.partition}:${partition.high}`).sort();
    await eventually(async () => {
      const [{ partitions }] = await admin.fetchOffsets({ groupId: "wordcount", topics: ["words"] });
      return partitions.map((partition) => `${partition.partition}:${partition.offset}`).sort().join() === ends.join();
    }, { timeoutMs: 30_000, what: `wordcount's commits at the ends of words (${ends.join()})` });
  } finally {
    await admin.disconnect();
  }
}

async function stateOf(url: string): Promise<string | undefined> {
  const response = await http(`${url}/api/v1/streams/wordcount/status`);
  return response.status === 200 ? (response.json() as { state: string }).state : undefined;
}

/** Waits until the four tasks are split between `members`, and answers each one's tasks. */
function splitTasks(members: readonly WordcountInstance[]): Promise<string[][]> {
  return eventually(async () => {
    const tasks = await Promise.all(members.map((member) => activeTasks(member.url)));
    if (tasks.some((list) => list === undefined || list.length === 0)) return false;
    return tasks.flatMap((list) => list!).sort().join() === ALL_TASKS && (tasks as string[][]);
  }, { timeoutMs: 60_000, what: "the four tasks split between the instances" });
}

test("an instance restarted within the session timeout gets its tasks back with no rebalance; a twin with its id fences it", async () => {
  const feeder = lineFeeder(cluster.producer);
  const [a, b] = await Promise.all([staticInstance("instance-a"), staticInstance("instance-b")]);
  const [aTasks, bTasks] = await splitTasks([a, b]);
  await feeder.produce(100);
  await untilExactCounts(b.url, "wordcount", feeder.lines);
  const generation = generations().at(-1);
  assert.ok(generation !== undefined && generation > 0, `the broker logged the group's generations: ${JSON.stringify(generations())}`);

  // The other instance is watched throughout: it never leaves RUNNING.
  const bStates = new Set<string | undefined>();
  let watching = true;
  const watch = (async () => {
    while (watching) {
      bStates.add(await stateOf(b.url));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    await stopProcess(a.process, "SIGTERM");
    assert.is(a.process.child.exitCode, 0);
    await feeder.produce(100);
    // Same state dir and id; the same HTTP port, since the group keeps the address the instance had (no rebalance tells it).
    const port = Number(new URL(a.url).port);
    const restarted = await staticInstance("instance-a", a.stateDir, port);
    const [restartedTasks, bTasksAfter] = await splitTasks([restarted, b]);
    assert.equal(restartedTasks, aTasks, "the restarted instance has its tasks back");
    assert.equal(bTasksAfter, bTasks, "the other instance kept its tasks");
    await untilExactCounts(b.url, "wordcount", feeder.lines);
    assert.equal(generations().at(-1), generation, `no new generation: ${JSON.stringify(generations())}`);
    assert.ok(
      cluster.brokerLogs().some((line) => line.msg === "static member rejoined with a new member id" && line.groupId === "wordcount" && line.groupInstanceId === "instance-a-1"),
      "the broker took the instance back as the same static member (<id>-<thread index>)",
    );
    assert.equal([...bStates], ["RUNNING"], "the other instance never stopped processing");

    // A second instance with the same id takes the membership over; the first is fenced and fails.
    const twin = await staticInstance("instance-a");
    await eventually(async () => (await stateOf(restarted.url)) === "ERROR", { timeoutMs: 30_000, what: "the fenced instance in ERROR" });
    // The log reaches this process a little after the state shows over HTTP.
    const wordcountLines = () => restarted.process.logs().filter((line) => line.applicationId === "wordcount");
    await eventually(() => wordcountLines().some((line) => line.msg === "application does not restart by itself: another instance joined with its group.instance.id"), {
      timeoutMs: 10_000,
      what: "the fenced application saying it does not restart",
    }).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(wordcountLines())}`);
    });
    assert.ok(wordcountLines().some((line) => line.msg === "application failed" && String(line.error).includes("FENCED_INSTANCE_ID")), "the failure names FENCED_INSTANCE_ID");
    assert.not.ok(wordcountLines().some((line) => line.msg === "application restarts after its error"));
    const [twinTasks] = await splitTasks([twin, b]);
    assert.equal(twinTasks, aTasks, "the twin has the instance's tasks");
    // The group still lists the instance at the fenced process's address (no rebalance told it another), so the
    // counts are not asked across instances here: the group's commits show that every line is read.
    await feeder.produce(50);
    await untilWordsCommitted();
    assert.equal(generations().at(-1), generation, "still no new generation");
    assert.equal([...bStates], ["RUNNING"]);
  } finally {
    watching = false;
    await watch;
  }
});

test.run();
