import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { lineFeeder, startWordcountCluster, untilExactCounts, type WordcountCluster, type WordcountInstance } from "./wordcount-processes";

/*
 * The broker (a `sluice broker` child, file store) is SIGKILLed and started again at once on the same port and data
 * while wordcount runs: the broker loads the group's membership, so the application's member heartbeats on in its
 * generation and keeps its tasks — nothing is restored — and it stays RUNNING with exact counts.
 */
const test = suite("wordcount keeps its tasks across a broker restart");
let cluster: WordcountCluster;

test.before(async () => {
  cluster = await startWordcountCluster(4);
});
test.after(async () => {
  await cluster?.close();
});

/** restore planned is logged at debug: the instance logs at debug to show every restore. */
const restores = (member: WordcountInstance) => member.process.logs().filter((line) => line.msg === "restore planned" && line.store === "counts");

test("SIGKILL of the broker and a restart: the member keeps its generation and tasks, restores nothing", async () => {
  const feeder = lineFeeder(cluster.producer);
  const instance = await cluster.start(undefined, undefined, ["--log.level=debug"]);
  await feeder.produce(100);
  await untilExactCounts(instance.url, "wordcount", feeder.lines);
  const restoresBefore = restores(instance).length;
  const stateOf = async () => ((await http(`${instance.url}/api/v1/streams/wordcount`)).json() as { state: { state: string } }).state.state;
  assert.is(await stateOf(), "RUNNING");

  await cluster.killBroker();
  await cluster.restartBroker();
  await feeder.produce(100);
  await untilExactCounts(instance.url, "wordcount", feeder.lines);
  await eventually(async () => (await stateOf()) === "RUNNING", { what: "wordcount RUNNING after the restart" });
  assert.is(restores(instance).length - restoresBefore, 0, "no task was reopened and restored");
  const rebalances = cluster.brokerLogs().filter((line) => line.msg === "member session expired" || line.msg === "removing members that did not sync");
  assert.equal(rebalances, [], "the restarted broker removed no member");
});

test.run();
