import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { PartitionFetcher } from "../../../providers/kafka-client";
import { eventually } from "../../helpers/eventually";
import { readToEnd } from "../../helpers/read-to-end";
import { FIXTURES } from "../../helpers/sluice";
import { committedRecords, keyCounts } from "./committed-outputs";
import { startWordcountCluster, stopProcess, type WordcountCluster } from "./wordcount-processes";

/*
 * A stateless application (test/fixtures/eos-copy: copy-in upper-cased to copy-out) under
 * processing.guarantee=exactly_once_v2, SIGKILLed ten times while records keep arriving, each time started again on
 * its state dir. A read_committed reader of copy-out finds every input record's output exactly once: no duplicate
 * (the work of a killed transaction is never seen) and none lost.
 */
const test = suite("a stateless pipeline under exactly_once_v2, SIGKILLed ten times under load");
let cluster: WordcountCluster;
const PARTITIONS = 3;
const KILLS = 10;
const FLAGS = [`--plugins.packages=${path.join(FIXTURES, "eos-copy")}`, "--streams.processing.guarantee=exactly_once_v2"];

test.before(async () => {
  cluster = await startWordcountCluster(1);
  const admin = cluster.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "copy-in", numPartitions: PARTITIONS }, { topic: "copy-out", numPartitions: PARTITIONS }], waitForLeaders: true });
  await admin.disconnect();
});
test.after(async () => {
  await cluster?.close();
});

/** How many records of copy-out a read_committed reader can read now (the sum of its partitions' last stable offsets, markers included). */
async function committedEnd(): Promise<number> {
  const fetcher = new PartitionFetcher({ bootstrapServers: [cluster.bootstrap], clientId: "committed-end", isolationLevel: "read_committed" });
  try {
    await fetcher.metadata.refresh(["copy-out"]);
    return (await fetcher.latestOffsets({ "copy-out": [...Array(PARTITIONS).keys()] })).reduce((sum, { offset }) => sum + offset, 0);
  } finally {
    fetcher.close();
  }
}

test("every input record's output is read read_committed exactly once", async () => {
  let sent = 0;
  let feeding = true;
  // About 5,000 records a second: load the instance keeps up with, so each run is killed mid-stream, not behind.
  const feed = (async () => {
    while (feeding) {
      const messages = Array.from({ length: 200 }, (_, i) => ({ key: `r-${sent + i}`, value: `record ${sent + i}` }));
      await Promise.all([cluster.producer.send({ topic: "copy-in", messages, acks: -1 }), new Promise((resolve) => setTimeout(resolve, 40))]);
      sent += messages.length;
    }
  })();
  let instance = await cluster.start(undefined, undefined, FLAGS);
  const stateDir = instance.stateDir;
  try {
    for (let kill = 1; kill <= KILLS; kill++) {
      // Each run commits more before it is killed mid-stream, with records still arriving.
      const before = await committedEnd();
      await eventually(async () => (await committedEnd()) >= before + 2_000, { timeoutMs: 60_000, intervalMs: 50, what: `run ${kill} to commit outputs` });
      await stopProcess(instance.process, "SIGKILL");
      instance = await cluster.start(stateDir, undefined, FLAGS);
    }
  } finally {
    feeding = false;
    await feed;
  }
  const input = keyCounts((await readToEnd(cluster.bootstrap, "copy-in", [...Array(PARTITIONS).keys()], "read_uncommitted", 60_000)).records);
  const inputRecords = [...input.values()].reduce((sum, n) => sum + n, 0);
  assert.ok(inputRecords >= sent, `${inputRecords} input records stored, ${sent} acknowledged`);
  // Until every input has its output (or the deadline: then the check below counts what is missing).
  let outputs = await committedRecords(cluster.bootstrap, "copy-out");
  await eventually(async () => {
    outputs = await committedRecords(cluster.bootstrap, "copy-out");
    const copied = keyCounts(outputs);
    return [...input.keys()].every((key) => copied.has(key));
  }, { timeoutMs: 60_000, what: `the restarted instance to copy all ${inputRecords} records` }).catch(() => undefined);
  const output = keyCounts(outputs);
  let duplicates = 0;
  let lost = 0;
  for (const [key, count] of input) {
    duplicates += Math.max(0, (output.get(key) ?? 0) - count);
    lost += Math.max(0, count - (output.get(key) ?? 0));
  }
  const strangers = [...output.keys()].filter((key) => !input.has(key));
  assert.equal({ duplicates, lost, strangers }, { duplicates: 0, lost: 0, strangers: [] }, `${outputs.length} outputs of ${inputRecords} inputs`);
  assert.ok(outputs.every(({ key, value }) => value === `RECORD ${key!.slice(2)}`), "each output is its input upper-cased");
});

test.run();
