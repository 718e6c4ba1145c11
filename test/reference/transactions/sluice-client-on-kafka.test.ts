/**
 * Sluice's transactional producer and read_committed fetcher against Apache Kafka 4.4 (one KRaft node from the
 * reference jars): the scenarios the embedded broker passes in the default tier, on the real thing.
 */
import { Kafka } from "kafkajs";
import { suite } from "uvu";
import { TRANSACTION_SCENARIOS, type TransactionBed } from "../../helpers/transaction-scenarios";
import { kafkaConfig } from "../../providers/broker/broker-test-kit";
import { startSingleKafkaBroker, type SingleKafkaBroker } from "./single-kafka-broker";

interface Context extends TransactionBed {
  kafka: SingleKafkaBroker;
}

const test = suite<Context>("reference: Sluice's transactions on Apache Kafka 4.4");

test.before(async (context) => {
  context.kafka = await startSingleKafkaBroker();
  context.bootstrap = context.kafka.bootstrap;
});

test.before.each((context) => {
  // The scenarios share the cluster: each names its own topics and transactional ids.
  context.producers = [];
  context.createTopic = async (topic, numPartitions) => {
    const admin = new Kafka(kafkaConfig(context.bootstrap)).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: true });
    await admin.disconnect();
  };
});

test.after.each(async ({ producers }) => {
  await Promise.all(producers.map((producer) => producer.close()));
});

test.after(async ({ kafka }) => {
  await kafka?.stop();
});

for (const [name, scenario] of Object.entries(TRANSACTION_SCENARIOS)) test(name, scenario);

test.run();
