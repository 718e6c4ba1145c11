import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { activeTasks, lineFeeder, startWordcountCluster, stopProcess, untilExactCounts, type WordcountCluster, type WordcountInstance } from "./wordcount-processes";

/*
 * Two `sluice start` children run wordcount with two stream threads each (streams.num.stream.threads=2), on a `words`
 * of four partitions: eight tasks, four per instance, two per thread. One instance is SIGKILLed while lines keep
 * coming: its two threads die mid-work, each with its own consumer, producer and tasks. The survivor's threads take
 * every task over, and every count is the true count of everything produced — per thread, nothing applied twice,
 * nothing lost. Then the killed instance comes back on its state dir and both answer the exact counts. Under
 * at_least_once and under exactly_once_v2 (each thread its own transactional id, `<app>-<process id>-<N>`).
 */
const TASKS = ["0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2", "1_3"].join();
const THREADS = ["--streams.num.stream.threads=2", "--streams.commit.interval.ms=100"];
const GUARANTEES = ["at_least_once", "exactly_once_v2"];

interface ThreadStatus {
  name: string;
  active_tasks: { task_id: string }[];
  clients: { consumer_client_id: string };
}

async function threadsOf(member: WordcountInstance): Promise<ThreadStatus[] | undefined> {
  const response = await http(`${member.url}/api/v1/streams/wordcount/status`);
  const status = response.status === 200 ? (response.json() as { state: string; threads: ThreadStatus[] }) : undefined;
  return status?.state === "RUNNING" ? status.threads : undefined;
}

for (const guarantee of GUARANTEES) {
  const test = suite(`wordcount with two stream threads per instance survives SIGKILL of an instance (${guarantee})`);
  const flags = [...THREADS, `--streams.processing.guarantee=${guarantee}`];
  let cluster: WordcountCluster;

  test.before(async () => {
    cluster = await startWordcountCluster(4);
  });
  test.after(async () => {
    await cluster?.close();
  });

  test("the survivor's threads take the killed instance's tasks over and every count stays exact", async () => {
    await killedUnderLoad(cluster, flags);
  });

  test.run();
}

async function killedUnderLoad(cluster: WordcountCluster, flags: string[]): Promise<void> {
  const feeder = lineFeeder(cluster.producer);
  const members = [await cluster.start(undefined, undefined, flags), await cluster.start(undefined, undefined, flags)];
  // Balanced across the instances first (four tasks each), then across each instance's threads (two each).
  const layout = await eventually(
    async () => {
      const threads = await Promise.all(members.map(threadsOf));
      if (threads.some((list) => list === undefined)) return false;
      const tasks = threads.map((list) => list!.flatMap((thread) => thread.active_tasks.map((task) => task.task_id)));
      if (tasks.flat().sort().join() !== TASKS || tasks.some((list) => list.length !== 4)) return false;
      return threads.every((list) => list!.length === 2 && list!.every((thread) => thread.active_tasks.length === 2)) && threads;
    },
    { timeoutMs: 60_000, what: "eight tasks, four per instance and two per thread" },
  );
  assert.equal(
    layout.map((list) => list!.map((thread) => thread.name)),
    [
      ["wordcount-StreamThread-1", "wordcount-StreamThread-2"],
      ["wordcount-StreamThread-1", "wordcount-StreamThread-2"],
    ],
  );
  assert.is(new Set(layout.flatMap((list) => list!.map((thread) => thread.clients.consumer_client_id))).size, 4, "a consumer per thread");
  await feeder.produce(100);
  await untilExactCounts(members[1].url, "wordcount", feeder.lines);

  let feeding = true;
  const flow = (async () => {
    while (feeding) await feeder.produce(20);
  })();
  try {
    const before = feeder.lines.length;
    await eventually(() => feeder.lines.length >= before + 200, { timeoutMs: 30_000, what: "lines flowing while both instances count" });
    await stopProcess(members[0].process, "SIGKILL");
    assert.is(members[0].process.child.signalCode, "SIGKILL");
    await eventually(async () => (await activeTasks(members[1].url))?.join() === TASKS, { timeoutMs: 60_000, what: "the survivor's threads to hold every task" });
  } finally {
    feeding = false;
    await flow;
  }
  await feeder.produce(50);
  await untilExactCounts(members[1].url, "wordcount", feeder.lines);
  const survivor = await threadsOf(members[1]);
  assert.ok(survivor?.every((thread) => thread.active_tasks.length > 0), `both of the survivor's threads work: ${JSON.stringify(survivor)}`);

  const back = await cluster.start(members[0].stateDir, undefined, flags);
  await feeder.produce(50);
  await untilExactCounts(back.url, "wordcount", feeder.lines);
  await untilExactCounts(members[1].url, "wordcount", feeder.lines);
}
