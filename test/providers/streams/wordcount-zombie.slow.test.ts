import { suite } from "uvu";
import { eventually } from "../../helpers/eventually";
import { ALL_TASKS, activeTasks, lineFeeder, membersBySplit, startWordcountCluster, stoppedWhileFeeding, untilExactCounts, type WordcountCluster } from "./wordcount-processes";

/*
 * Two `sluice start` children share wordcount on a `words` of two partitions (tasks 0_0, 0_1, 1_0, 1_1), every line
 * written to partition 0: one splits the lines (0_0), the other counts (1_0 or 1_1, or both) but splits none.
 * The one that only counts is stopped (SIGSTOP) past its session while lines keep coming, so the other
 * takes its task over, then continued (SIGCONT): its fetch in flight has been answered meanwhile, so it resumes as
 * a zombie, counts those words and writes its changelog after the new owner's fence. It must notice (its records
 * did not land right after its own), commit nothing, and join again; the counts stay exact on both.
 */
const ZOMBIE_NOTICED = [
  "this member lost what it was processing to another; joining the group again",
  "tasks processed elsewhere meanwhile are restored again",
  "this member's partitions were lost (it is out of its generation, or lost its work); dropping their uncommitted work and joining again",
];

const test = suite("a zombie member of wordcount");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(2);
});
test.after(async () => {
  await cluster?.close();
});

test("a member continued after its tasks moved on commits nothing of its late work, rejoins, and every count stays exact", async () => {
  const feeder = lineFeeder(cluster.producer, 0);
  const members = [await cluster.start(), await cluster.start()];
  await feeder.produce(200);
  await untilExactCounts(members[0].url, "wordcount", feeder.lines);
  const [zombie, other] = await membersBySplit(members);

  await stoppedWhileFeeding(feeder, zombie, other, async () => {
    await eventually(async () => (await activeTasks(other.url))?.join() === ALL_TASKS, { timeoutMs: 30_000, what: "the other member to take every task over" });
    zombie.process.child.kill("SIGCONT");
    // The continued member learns it is a zombie as a Kafka Streams member does (a commit refused, or a heartbeat
    // that says it is no longer in the group): its late write landed after the new owner's fence, or its heartbeat is
    // answered UNKNOWN_MEMBER_ID first and it drops its tasks as lost, or (eager) it rejoined first and finds its kept
    // task's input committed past its local state. Which comes first is a race of its own timers; either way it must
    // commit nothing of its late work and the counts below stay exact.
    // Its other applications' members were stopped too: only wordcount's notice counts.
    const ofWordcount = (line: Record<string, unknown>) => (line.groupId ?? line.applicationId ?? "wordcount") === "wordcount";
    await eventually(() => zombie.process.logs().some((line) => ZOMBIE_NOTICED.includes(String(line.msg)) && ofWordcount(line)), {
      timeoutMs: 30_000,
      what: "the continued member to notice that another member took its work over",
    });
  });
});

test.run();
