import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { countsPartitions, localCounts, startWordcountCluster, stopProcess, tasksOf, trueCounts, untilExactCounts } from "./wordcount-processes";

/*
 * A crash does not cost a warm-up (KIP-441): wordcount in two `sluice start` processes, A and B, against a standalone
 * `sluice broker`, `words` of four partitions, each instance counting two of them into a store whose changelog holds
 * far more than acceptable.recovery.lag records. B is SIGKILLed and, once A has taken its tasks over, started again on
 * its state dir: its counting tasks' state is on disk, current, though never closed. B reports the changelog positions its databases committed, so
 * the leader finds it caught up on them and gives them back to it as active tasks at the next rebalance, not warm-ups
 * (which the default probing.rebalance.interval.ms of 10 minutes would keep from it for the rest of the test). B then
 * answers their keys with exact counts, restoring at most a few changelog records. Under both processing.guarantee values:
 * Sluice resumes a crashed task from its local state under exactly_once_v2 too.
 */
const test = suite("an instance restarted after SIGKILL gets its stateful tasks back, not warm-ups");

const ACCEPTABLE_RECOVERY_LAG = 200;
const counting = (tasks: readonly string[]) => tasks.filter((task) => task.startsWith("1_"));

for (const guarantee of ["at_least_once", "exactly_once_v2"]) {
  test(`under ${guarantee}: B, SIGKILLed and restarted on its state dir, runs its counting tasks again at once and answers exactly`, async () => {
    const cluster = await startWordcountCluster(4);
    try {
      const flags = [`--streams.acceptable.recovery.lag=${ACCEPTABLE_RECOVERY_LAG}`, `--streams.processing.guarantee=${guarantee}`];
      const [a, b] = await Promise.all([cluster.start(undefined, undefined, flags), cluster.start(undefined, undefined, flags)]);
      const split = await eventually(async () => {
        const [aTasks, bTasks] = await Promise.all([tasksOf(a.url), tasksOf(b.url)]);
        return aTasks !== undefined && bTasks !== undefined && counting(aTasks.active).length === 2 && counting(bTasks.active).length === 2 && { a: aTasks, b: bTasks };
      }, { timeoutMs: 60_000, what: "two counting tasks on each instance" });

      // 1000 lines of five distinct words each: 5000 keys, about 1250 changelog records per counting task.
      const lines = Array.from({ length: 1000 }, (_, line) => Array.from({ length: 5 }, (_, word) => `w${line * 5 + word}`).join(" "));
      for (let from = 0; from < lines.length; from += 100) await cluster.producer.send({ topic: "words", messages: lines.slice(from, from + 100).map((value) => ({ value })), acks: -1 });
      const truth = trueCounts(lines);
      await untilExactCounts(a.url, "wordcount", lines);
      await untilExactCounts(b.url, "wordcount", lines);

      // B is back only after its session ended and A took its tasks over: the group's memory of B's member, which shares
      // B's process id, does not vouch for the restarted B's state.
      await stopProcess(b.process, "SIGKILL");
      await eventually(async () => counting((await tasksOf(a.url))?.active ?? []).length === 4, { timeoutMs: 60_000, what: "A to run every counting task" });
      const restarted = await cluster.start(b.stateDir, undefined, flags);
      const first = await eventually(async () => {
        const tasks = await tasksOf(restarted.url);
        return tasks !== undefined && (counting(tasks.active).length > 0 || counting(tasks.standby).length > 0) && tasks;
      }, { timeoutMs: 60_000, what: "the restarted B to run with counting tasks" });
      assert.equal({ active: counting(first.active), standby: counting(first.standby) }, { active: counting(split.b.active), standby: [] }, "B's first assignment after the restart: its own counting tasks, active");

      await untilExactCounts(restarted.url, "wordcount", lines);
      const [fromA, fromB] = await Promise.all([localCounts(a.url), localCounts(restarted.url)]);
      assert.is(fromB.status, "SUCCESS");
      assert.ok(fromB.allLocalActive, "B answers from its own active tasks");
      assert.equal({ ...fromA.counts, ...fromB.counts }, truth);
      for (const entry of (await countsPartitions(restarted.url)).filter((partition) => !partition.standby)) {
        assert.ok(entry.log_end_offset > ACCEPTABLE_RECOVERY_LAG, `partition ${entry.partition}'s changelog holds ${entry.log_end_offset} records`);
        assert.ok(entry.restore.records_restored <= ACCEPTABLE_RECOVERY_LAG, `B restored ${entry.restore.records_restored} of ${entry.log_end_offset} records of partition ${entry.partition}`);
      }
      await Promise.all([a, restarted].map((instance) => stopProcess(instance.process, "SIGTERM")));
    } finally {
      await cluster.close();
    }
  });
}

test.run();
