import { suite } from "uvu";
import * as assert from "uvu/assert";
import { copyUnderKills, EOS_COPY_FLAGS } from "./eos-copy-kills";
import { startWordcountCluster, type WordcountCluster } from "./wordcount-processes";

/*
 * A stateless application (test/fixtures/eos-copy: copy-in upper-cased to copy-out) under
 * processing.guarantee=exactly_once_v2 on a `sluice broker` child, SIGKILLed ten times while records keep arriving,
 * each time started again on its state dir. A read_committed reader of copy-out finds every input record's output
 * exactly once: no duplicate (the work of a killed transaction is never seen) and none lost.
 */
const test = suite("a stateless pipeline under exactly_once_v2, SIGKILLed ten times under load");
let cluster: WordcountCluster;
const PARTITIONS = 3;

test.before(async () => {
  cluster = await startWordcountCluster(1);
  const admin = cluster.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "copy-in", numPartitions: PARTITIONS }, { topic: "copy-out", numPartitions: PARTITIONS }], waitForLeaders: true });
  await admin.disconnect();
});
test.after(async () => {
  // What the broker logged as failed (a Fetch it answered UNKNOWN_SERVER_ERROR, say) is printed for the record.
  const failures = cluster?.brokerLogs().filter((line) => line.level === "error") ?? [];
  if (failures.length > 0) console.error(`the broker logged ${failures.length} errors; the first:`, JSON.stringify(failures.slice(0, 5)));
  await cluster?.close();
});

test("every input record's output is read read_committed exactly once", async () => {
  const outcome = await copyUnderKills({
    bootstrap: cluster.bootstrap,
    producer: cluster.producer,
    partitions: PARTITIONS,
    kills: 10,
    outputsPerRun: 2_000,
    start: (stateDir) => cluster.start(stateDir, undefined, EOS_COPY_FLAGS),
  });
  const { inputRecords, outputs, duplicates, lost, strangers } = outcome;
  assert.equal({ duplicates, lost, strangers }, { duplicates: 0, lost: 0, strangers: [] }, `${outputs.length} outputs of ${inputRecords} inputs`);
  assert.ok(outputs.every(({ key, value }) => value === `RECORD ${key!.slice(2)}`), "each output is its input upper-cased");
});

test.run();
