/**
 * Kafka's Java consumer as a static member (KIP-345, `group.instance.id`) of a group on the embedded broker: closed
 * and started again within the session timeout, it gets its partitions back while the other member keeps its own
 * with no rebalance; Kafka's AdminClient removes it by its instance id (LeaveGroup v3+), which rebalances the group.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestBroker, type TestBroker } from "../providers/broker/broker-test-kit";
import { eventually } from "../helpers/eventually";
import { JavaProcesses, REFERENCE_PACKAGE, SIGTERM_EXIT, stopJava, type JavaProcess } from "../helpers/reference-java";

const CONSUMER = `${REFERENCE_PACKAGE}.clients.GroupConsumer`;
const ADMIN = `${REFERENCE_PACKAGE}.clients.AdminCalls`;
const TOPIC = "readings";
const GROUP = "static-readers";
const PARTITIONS = 4;

const test = suite<{ broker: TestBroker; java: JavaProcesses }>("reference: Kafka's Java consumer as a static member on the embedded broker");

test.before.each(async (context) => {
  context.broker = await startTestBroker();
  context.java = new JavaProcesses();
});

test.after.each(async ({ broker, java }) => {
  await java.stopAll();
  await broker.close();
});

/** The partitions a member holds after its last rebalance. */
function holding(member: JavaProcess): number[] {
  const held = new Set<number>();
  for (const change of member.lines().filter((line) => line.event === "assigned" || line.event === "revoked")) {
    for (const partition of change.partitions as number[]) change.event === "assigned" ? held.add(partition) : held.delete(partition);
  }
  return [...held].sort((a, b) => a - b);
}

const rebalanceEvents = (member: JavaProcess) => member.lines().filter((line) => line.event === "assigned" || line.event === "revoked").length;

async function produce(broker: TestBroker, count: number): Promise<void> {
  const producer = broker.kafka().producer();
  await producer.connect();
  await producer.send({ topic: TOPIC, messages: Array.from({ length: count }, (_, i) => ({ value: `r${i}`, partition: i % PARTITIONS })), acks: -1 });
  await producer.disconnect();
}

test("a restarted static Java member gets its partitions back with no rebalance; the AdminClient removes it by its instance id", async ({ broker, java }) => {
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }] });
  await admin.disconnect();
  const member = (id: string) => java.start(CONSUMER, [broker.bootstrap, GROUP, TOPIC, `client.id=${id}`, `group.instance.id=${id}`, "session.timeout.ms=30000"]);
  const a = member("java-a");
  const b = member("java-b");
  await eventually(() => holding(a).length === 2 && holding(b).length === 2, { timeoutMs: 60_000, intervalMs: 100, what: "the two members holding two partitions each" });
  const aPartitions = holding(a);
  const bEvents = rebalanceEvents(b);

  assert.is((await stopJava(a)).code, SIGTERM_EXIT, a.stderr());
  await produce(broker, 40);
  const restarted = member("java-a");
  await eventually(() => holding(restarted).length > 0, { timeoutMs: 60_000, intervalMs: 100, what: "the restarted member assigned" });
  assert.equal(holding(restarted), aPartitions, "the restarted member has its partitions back");
  const read = (m: JavaProcess) => m.lines().filter((line) => line.event === "record").length;
  await eventually(() => read(restarted) + read(b) === 40, { timeoutMs: 30_000, intervalMs: 100, what: "every record read" });
  assert.is(rebalanceEvents(b), bEvents, "the other member was never rebalanced");
  assert.equal(holding(b).length, 2);

  const removal = await java.run(ADMIN, [broker.bootstrap], {
    input: [
      JSON.stringify({ call: "removeMembersFromConsumerGroup", group: GROUP, instances: ["java-a"] }),
      JSON.stringify({ call: "removeMembersFromConsumerGroup", group: GROUP, instances: ["nobody"] }),
    ].join("\n"),
  });
  const [removed, unknown] = removal.stdout.trim().split("\n").map((line) => JSON.parse(line) as { result?: unknown; error?: { error: string; message: string } });
  assert.is(removed.error, undefined, removal.stdout);
  assert.ok(unknown.error !== undefined && /UnknownMemberId/.test(JSON.stringify(unknown.error)), removal.stdout);
  // The removed member finds itself unknown and joins again as a new member: the group rebalances.
  await eventually(() => rebalanceEvents(b) > bEvents, { timeoutMs: 60_000, intervalMs: 100, what: "the other member rebalanced after the removal" });
  await eventually(() => holding(b).length + holding(restarted).length === PARTITIONS, { timeoutMs: 60_000, intervalMs: 100, what: "the partitions shared again" });
  for (const m of [restarted, b]) assert.equal(m.lines().filter((line) => line.event === "failed"), [], m.stdout());
});

test.run();
