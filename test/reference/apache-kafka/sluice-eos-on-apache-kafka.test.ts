/**
 * Sluice's exactly_once_v2 on a real three-node Apache Kafka 4.x cluster (the reference jars): Kafka's own
 * transaction coordinator (its log replicated three ways, min.insync.replicas=2), fencing and markers.
 * test/fixtures/eos-copy is SIGKILLed mid-stream three times under load and started again on its state dir; Sluice's
 * read_committed reader and Kafka's kafka-console-consumer with --isolation-level read_committed both see every
 * input record's output exactly once.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startKafkaCluster, type KafkaCluster } from "../../helpers/kafka-cluster";
import { copyUnderKills, EOS_COPY_FLAGS } from "../../providers/streams/eos-copy-kills";
import { startSluiceOn, type SluiceOnKafka } from "./sluice-on-kafka-kit";

const test = suite("Sluice's exactly_once_v2 on Apache Kafka");
const PARTITIONS = 3;
let cluster: KafkaCluster;
const instances: SluiceOnKafka[] = [];

test.before(async () => {
  cluster = await startKafkaCluster();
  const admin = cluster.kafkajs().admin();
  await admin.connect();
  await admin.createTopics({ topics: ["copy-in", "copy-out"].map((topic) => ({ topic, numPartitions: PARTITIONS })), waitForLeaders: true });
  await admin.disconnect();
});

test.after(async () => {
  for (const instance of instances.splice(0)) await instance.stop();
  await cluster?.close();
});

test("a stateless pipeline SIGKILLed mid-stream three times: every input's output read read_committed exactly once", async () => {
  const producer = cluster.kafkajs("eos-feeder").producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  let outcome;
  try {
    outcome = await copyUnderKills({
      // The readers take one address; no node goes down here.
      bootstrap: cluster.bootstrap().split(",")[0],
      producer,
      partitions: PARTITIONS,
      kills: 3,
      outputsPerRun: 2_000,
      timeoutMs: 120_000,
      start: async (stateDir) => {
        const instance = await startSluiceOn(cluster, "PLAINTEXT", { stateDir, flags: EOS_COPY_FLAGS });
        instances.push(instance);
        return instance;
      },
    });
  } finally {
    await producer.disconnect();
  }
  const { inputRecords, outputs, duplicates, lost, strangers } = outcome;
  assert.equal({ duplicates, lost, strangers }, { duplicates: 0, lost: 0, strangers: [] }, `${outputs.length} outputs of ${inputRecords} inputs`);

  // Kafka's own read_committed consumer agrees: each key once, upper-cased.
  const printed = await cluster.tool(
    "kafka-console-consumer",
    ["--topic", "copy-out", "--from-beginning", "--isolation-level", "read_committed", "--timeout-ms", "10000", "--formatter-property", "print.key=true"],
    { timeoutMs: 120_000 },
  );
  const seen = new Map<string, number>();
  for (const line of printed.split("\n").filter(Boolean)) {
    const [key, value] = line.split("\t");
    assert.is(value, `RECORD ${key.slice(2)}`, line);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  assert.is(seen.size, inputRecords, "kafka-console-consumer reads every input's output");
  assert.equal([...seen].filter(([, count]) => count > 1), [], "and none twice");
});

test.run();
