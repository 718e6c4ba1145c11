import { spawn } from "node:child_process";
import { join } from "node:path";
import type { Consumer } from "kafkajs";
import { suite } from "uvu";
import { eventually } from "../../helpers/eventually";
import { startTestBroker, type TestBroker, type TestKafka } from "./broker-test-kit";

const test = suite<{ broker: TestBroker; kafka: TestKafka }>("broker: kafkajs consumer groups");

const TOPIC = "shared";
const ALL = [0, 1, 2, 3];

test.before.each(async (context) => {
  context.broker = await startTestBroker();
  context.kafka = context.broker.kafka();
  const admin = context.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 4 }] });
  await admin.disconnect();
});

test.after.each(async ({ broker }) => {
  await broker.close();
});

/** A consumer that remembers its latest assignment. */
async function member(kafka: TestKafka, groupId: string): Promise<{ consumer: Consumer; assigned: () => number[] }> {
  const consumer = kafka.consumer({ groupId, sessionTimeout: 2_000, heartbeatInterval: 200, maxWaitTimeInMs: 100 });
  let assigned: number[] = [];
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    assigned = [...(payload.memberAssignment[TOPIC] ?? [])].sort();
  });
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  await consumer.run({ eachMessage: async () => undefined });
  return { consumer, assigned: () => assigned };
}

function splitsAll(a: number[], b: number[]): boolean {
  return a.length > 0 && b.length > 0 && [...a, ...b].sort().join() === ALL.join();
}

test("two members of a group split the partitions, and the one left takes them all when the other leaves", async ({ kafka }) => {
  const first = await member(kafka, "splitters");
  await eventually(() => first.assigned().join() === ALL.join(), { what: "the first member to own every partition" });

  const second = await member(kafka, "splitters");
  await eventually(() => splitsAll(first.assigned(), second.assigned()), { what: "the partitions to be split" });

  await second.consumer.disconnect();
  await eventually(() => first.assigned().join() === ALL.join(), { what: "the first member to own every partition again" });
});

test("when a member dies without leaving, the group rebalances after its session times out", async ({ broker, kafka }) => {
  const survivor = await member(kafka, "survivors");
  await eventually(() => survivor.assigned().join() === ALL.join(), { what: "the survivor to own every partition" });

  const script = join(__dirname, "group-member-process.js");
  const doomed = spawn(process.execPath, [script, broker.bootstrap, "survivors", TOPIC], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    let doomedAssigned: number[] = [];
    doomed.stdout.setEncoding("utf8").on("data", (text: string) => {
      for (const line of text.split("\n").filter(Boolean)) doomedAssigned = (JSON.parse(line) as { assigned: number[] }).assigned;
    });
    await eventually(() => splitsAll(survivor.assigned(), [...doomedAssigned].sort()), { what: "the partitions to be split" });

    doomed.kill("SIGKILL");
    await eventually(() => survivor.assigned().join() === ALL.join(), { what: "the survivor to own every partition again", timeoutMs: 15_000 });
  } finally {
    doomed.kill("SIGKILL");
  }
});

test.run();
