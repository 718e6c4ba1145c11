/**
 * Sluice's group consumer in cooperative mode (KIP-429) in a group on Apache Kafka 4.4 (the reference jars): a third
 * member joining gets only its share of the tasks, each once its owner gave it up, and the members that keep theirs
 * process batches while they join.
 */
import type { Producer } from "kafkajs";
import { suite } from "uvu";
import { startKafkaCluster, type KafkaCluster } from "../../helpers/kafka-cluster";
import { aThirdMemberJoinsCooperatively, PARTITIONS, topology, WordcountGroup } from "../../providers/streams/wordcount-group";

const test = suite("Sluice's cooperative group members on Apache Kafka");

let cluster: KafkaCluster;
let producer: Producer | undefined;
let group: WordcountGroup | undefined;

test.before(async () => {
  cluster = await startKafkaCluster({ nodes: 1, serverProperties: { "group.initial.rebalance.delay.ms": 0 } });
});
test.after(async () => {
  await group?.stop();
  await producer?.disconnect();
  await cluster?.close();
});

test("a third member joins: only its share moves, each task once its owner gave it up; the others process throughout", async () => {
  const admin = cluster.kafkajs().admin();
  await admin.connect();
  await admin.createTopics({ topics: topology.sourceTopics().map((topic) => ({ topic, numPartitions: PARTITIONS })), waitForLeaders: true });
  await admin.disconnect();
  producer = cluster.kafkajs().producer();
  await producer.connect();
  group = new WordcountGroup(cluster.bootstrap().split(","), "cooperative-sluice");
  await aThirdMemberJoinsCooperatively(group, producer);
});

test.run();
