/**
 * A kafkajs group member in its own process, so a test can kill it without a LeaveGroup.
 * Arguments: bootstrap, group id, topic. Prints one JSON line per assignment it receives.
 */
import { Kafka } from "kafkajs";
import { kafkaConfig } from "./broker-test-kit";

async function main(): Promise<void> {
  const [bootstrap, groupId, topic] = process.argv.slice(2);
  const consumer = new Kafka(kafkaConfig(bootstrap)).consumer({ groupId, sessionTimeout: 2_000, heartbeatInterval: 200, maxWaitTimeInMs: 100 });
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    process.stdout.write(`${JSON.stringify({ assigned: payload.memberAssignment[topic] ?? [] })}\n`);
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async () => undefined });
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
