import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { activeTasks, lineFeeder, startWordcountCluster, stopProcess, untilExactCounts, type WordcountCluster, type WordcountInstance } from "./wordcount-processes";

/*
 * Standby replicas (`streams.num.standby.replicas`) as users run them: two `sluice start` processes running wordcount
 * against a standalone `sluice broker`, `words` of two partitions. Each instance keeps a warm copy of the other's
 * counting task (1_0 or 1_1) from its changelog; when that other one is SIGKILLed, the survivor takes the task over
 * and restores only the changelog tail its copy lacks — none at all once it had caught up.
 */
const test = suite("standby replicas of sluice processes");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(2);
});
test.after(async () => {
  await cluster?.close();
});

interface StorePartition {
  partition: number;
  changelog_position: number;
  log_end_offset: number;
  lag: number;
  standby: boolean;
  restoring: boolean;
  restore: { records_restored: number };
}

/** The partitions of wordcount's `counts` store on the instance at `url`, active and standby. */
async function countsPartitions(url: string): Promise<StorePartition[]> {
  const response = await http(`${url}/api/v1/streams/wordcount/stores`);
  assert.is(response.status, 200, response.text);
  const { stores } = response.json() as { stores: { name: string; partitions: StorePartition[] }[] };
  return stores.find((store) => store.name === "counts")?.partitions ?? [];
}

/** The ids of the instance's standby tasks; undefined unless it is RUNNING. */
async function standbyTasks(url: string): Promise<string[] | undefined> {
  const response = await http(`${url}/api/v1/streams/wordcount/status`);
  if (response.status !== 200) return undefined;
  const status = response.json() as { state: string; threads: { standby_tasks: { task_id: string }[] }[] };
  return status.state === "RUNNING" ? status.threads.flatMap((thread) => thread.standby_tasks.map((task) => task.task_id)).sort() : undefined;
}

test("each instance keeps the other's counting task warm; the survivor of a SIGKILL restores only the tail its copy lacks", async () => {
  const feeder = lineFeeder(cluster.producer);
  const flags = ["--streams.num.standby.replicas=1"];
  const instances: WordcountInstance[] = await Promise.all([cluster.start(undefined, undefined, flags), cluster.start(undefined, undefined, flags)]);
  const [victim, survivor] = instances;

  // Tasks: 0_x split the lines (stateless, no standby), 1_x count them into `counts`. Each instance stands by for the
  // counting task the other runs, and for nothing it runs itself.
  const layout = await eventually(async () => {
    const tasks = await Promise.all(instances.flatMap((instance) => [activeTasks(instance.url), standbyTasks(instance.url)]));
    if (tasks.some((list) => list === undefined)) return false;
    const [victimActive, victimStandby, survivorActive, survivorStandby] = tasks as string[][];
    if (victimActive.length === 0 || survivorActive.length === 0 || [...victimActive, ...survivorActive].sort().join() !== "0_0,0_1,1_0,1_1") return false;
    return { victimActive, victimStandby, survivorActive, survivorStandby };
  }, { timeoutMs: 60_000, what: "the four tasks split between the instances" });
  const counting = (tasks: string[]) => tasks.filter((task) => task.startsWith("1_"));
  assert.equal(layout.survivorStandby, counting(layout.victimActive), "the survivor stands by for the victim's counting task");
  assert.equal(layout.victimStandby, counting(layout.survivorActive), "the victim stands by for the survivor's counting task");
  const partition = Number(layout.survivorStandby[0].split("_")[1]);

  // The servers record lists each instance's standbys as the input partitions they stand for.
  const servers = (await http(`${survivor.url}/api/v1/applications/wordcount`)).json() as {
    instances: { server: string; assignments: { topic: string; partitions: number[] }[]; standby_assignments: { topic: string; partitions: number[] }[] }[];
  };
  const survivorRecord = servers.instances.find((instance) => instance.server === survivor.server)!;
  assert.is(survivorRecord.standby_assignments.length, 1, JSON.stringify(survivorRecord));
  const [standbyAssignment] = survivorRecord.standby_assignments;
  assert.equal(standbyAssignment.partitions, [partition]);
  assert.not.ok(survivorRecord.assignments.find((assignment) => assignment.topic === standbyAssignment.topic)?.partitions.includes(partition), "an instance never stands by for a task it runs");

  for (let batch = 0; batch < 60; batch++) await feeder.produce(20);
  await untilExactCounts(survivor.url, "wordcount", feeder.lines);

  // The survivor's copy catches up with the changelog, which the victim's commits have made long.
  const warm = await eventually(async () => {
    const copy = (await countsPartitions(survivor.url)).find((entry) => entry.standby && entry.partition === partition);
    return copy !== undefined && copy.log_end_offset > 0 && copy.lag === 0 && copy;
  }, { timeoutMs: 30_000, what: "the survivor's standby copy caught up with its changelog" });
  assert.ok(warm.log_end_offset >= 100, `the changelog holds ${warm.log_end_offset} records`);

  await stopProcess(victim.process, "SIGKILL");
  const taken = await eventually(async () => {
    const entry = (await countsPartitions(survivor.url)).find((candidate) => candidate.partition === partition && !candidate.standby);
    return entry !== undefined && !entry.restoring && entry;
  }, { timeoutMs: 60_000, what: "the survivor running the victim's counting task" });
  assert.is(taken.restore.records_restored, 0, `the survivor's copy was caught up, yet it restored ${taken.restore.records_restored} of ${taken.log_end_offset} changelog records`);
  assert.equal(await standbyTasks(survivor.url), [], "alone, the survivor stands by for nothing");

  await feeder.produce(50);
  await untilExactCounts(survivor.url, "wordcount", feeder.lines);
});

test.run();
