/**
 * A member cut off from the broker long enough to be expelled from the group keeps its tasks open; when it joins
 * again and is given the same task, another member may have processed that task meanwhile. Its stores must then
 * be restored from the changelog, not carried on from what it last knew (found by the chaos soak: counts short by
 * the other member's updates after a broker restart).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { KafkaProxy } from "../../helpers/kafka-proxy";
import { eventually } from "../../helpers/eventually";
import { countsOf, sorted, startWordcountCluster, stopProcess, trueCounts } from "./wordcount-processes";

test("a task processed elsewhere while this member was cut off is restored when it comes back", async () => {
  const cluster = await startWordcountCluster(1);
  const brokerPort = Number(cluster.bootstrap.split(":")[1]);
  const proxy = await KafkaProxy.start("127.0.0.1", brokerPort);
  const fed: string[] = [];
  const feed = async (lines: string[]) => {
    fed.push(...lines);
    await cluster.producer.send({ topic: "words", messages: lines.map((value) => ({ value })) });
  };
  const countsReach = (url: string, what: string) =>
    eventually(async () => JSON.stringify(sorted((await countsOf(url)) ?? {})) === JSON.stringify(sorted(trueCounts(fed))), { timeoutMs: 40_000, intervalMs: 200, what });
  try {
    const cutOff = await cluster.start(undefined, `127.0.0.1:${proxy.port}`);
    await feed(["alpha beta", "alpha gamma"]);
    await countsReach(cutOff.url, "the first member to count the first lines");

    proxy.stall(120_000);
    const other = await cluster.start();
    await feed(["alpha delta", "beta beta"]);
    await countsReach(other.url, "the second member, alone in the group, to count the second lines");
    await stopProcess(other.process, "SIGTERM");

    proxy.release();
    await feed(["alpha omega"]);
    await countsReach(cutOff.url, "the first member, given the task back, to count every line");
    assert.equal((await countsOf(cutOff.url))?.alpha, 4);
  } finally {
    // Members first: one whose proxy is gone spends its consumer's whole close timeout (30 s) trying to leave.
    await cluster.close();
    await proxy.close();
  }
});

test.run();
