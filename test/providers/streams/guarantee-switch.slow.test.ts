/**
 * An application switched between processing guarantees keeps its state: wordcount runs at_least_once, then
 * exactly_once_v2, then at_least_once again, each time as a new member on an empty state dir, so every run restores
 * the counts from the changelog the runs before it wrote (fences and commit markers under at_least_once,
 * transactions under exactly_once_v2). Kafka Streams allows switching either way.
 */
import { suite } from "uvu";
import { lineFeeder, startWordcountCluster, stopProcess, untilExactCounts, type WordcountCluster } from "./wordcount-processes";

const test = suite("switching processing.guarantee");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(2);
});

test.after(async () => {
  await cluster?.close();
});

test("at_least_once, then exactly_once_v2, then at_least_once: each run, restored on an empty state dir, counts every line exactly", async () => {
  const feeder = lineFeeder(cluster.producer);
  for (const guarantee of ["at_least_once", "exactly_once_v2", "at_least_once"]) {
    const member = await cluster.start(undefined, undefined, [`--streams.processing.guarantee=${guarantee}`]);
    await feeder.produce(100);
    await untilExactCounts(member.url, "wordcount", feeder.lines);
    await stopProcess(member.process, "SIGTERM");
  }
});

test.run();
