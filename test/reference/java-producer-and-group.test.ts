/**
 * Apache Kafka's Java producer with its defaults (idempotence, acks=all, its batching) and a group of Java
 * consumers on the embedded broker: every record is delivered once, to the member that owns its partition. Static
 * members (KIP-345): restarted within the session timeout, one gets its partitions back with no rebalance; Kafka's
 * AdminClient removes one by its group.instance.id. Java members of the consumer group protocol (KIP-848) share a
 * topic too, and Kafka's kafka-consumer-groups describes their group.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestBroker, type TestBroker } from "../providers/broker/broker-test-kit";
import { eventually } from "../helpers/eventually";
import { kafkaTool } from "../helpers/kafka-tools";
import { JavaProcesses, REFERENCE_PACKAGE, SIGTERM_EXIT, stopJava, type JavaProcess } from "../helpers/reference-java";

const PRODUCER = `${REFERENCE_PACKAGE}.clients.DefaultProducer`;
const CONSUMER = `${REFERENCE_PACKAGE}.clients.GroupConsumer`;
const ADMIN = `${REFERENCE_PACKAGE}.clients.AdminCalls`;

const test = suite<{ broker: TestBroker; java: JavaProcesses }>("reference: Java producer and consumer group on the embedded broker");

test.before.each(async (context) => {
  context.broker = await startTestBroker();
  context.java = new JavaProcesses();
});

test.after.each(async ({ broker, java }) => {
  await java.stopAll();
  await broker.close();
});

const TOPIC = "orders";
const PARTITIONS = 6;
const RECORDS = Array.from({ length: 3000 }, (_, i) => ({ key: `customer-${i % 97}`, value: `order-${i}` }));

interface Delivered {
  partition: number;
  offset: number;
  key: string;
  value: string;
}

const events = (program: JavaProcess, event: string) => program.lines().filter((line) => line.event === event);
const readBy = (list: JavaProcess[]) => list.flatMap((member) => events(member, "record")) as unknown as Delivered[];

/** The partitions a member holds after its last rebalance. */
function holding(member: JavaProcess): number[] {
  const changes = member.lines().filter((line) => line.event === "assigned" || line.event === "revoked");
  const held = new Set<number>();
  for (const change of changes) for (const partition of change.partitions as number[]) change.event === "assigned" ? held.add(partition) : held.delete(partition);
  return [...held].sort((a, b) => a - b);
}

async function createTopic(broker: TestBroker) {
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }] });
}

/** Three members of the classic protocol, waited for until they split the partitions two by two. */
async function startGroup(broker: TestBroker, java: JavaProcesses, group: string): Promise<JavaProcess[]> {
  const members = [0, 1, 2].map((i) => java.start(CONSUMER, [broker.bootstrap, group, TOPIC, `client.id=member-${i}`]));
  await eventually(
    () => {
      const held = members.map(holding);
      return held.every((partitions) => partitions.length === 2) && new Set(held.flat()).size === PARTITIONS;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: "three members holding two partitions each" },
  );
  return members;
}

test("the producer's defaults write every record once, and three classic members read each exactly once, committing as they go", async ({ broker, java }) => {
  await createTopic(broker);
  const members = await startGroup(broker, java, "order-readers");

  const produced = await java.run(PRODUCER, [broker.bootstrap, TOPIC], { input: RECORDS.map((record) => JSON.stringify(record)).join("\n") });
  assert.is(produced.code, 0, produced.stderr);
  const producerLines = produced.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  const [config] = producerLines;
  // Kafka's defaults, untouched: idempotent, acks=all (-1), linger 5 ms in batches of 16 KiB, no compression.
  assert.equal(config, { event: "config", "enable.idempotence": true, acks: "-1", "compression.type": "none", "linger.ms": 5, "batch.size": 16384 });
  const acked = producerLines.filter((line) => line.event === "acked") as unknown as Delivered[];
  assert.is(acked.length, RECORDS.length);
  const done = producerLines.at(-1)!;
  assert.is(done.event, "done");
  // The producer batched: more than one record went in a request on average.
  assert.ok((done["records-per-request-avg"] as number) > 1, JSON.stringify(done));

  // Offsets are dense per partition: the idempotent producer stored nothing twice and left no gap.
  const byPartition = new Map<number, number[]>();
  for (const { partition, offset } of acked) byPartition.set(partition, [...(byPartition.get(partition) ?? []), offset]);
  for (const offsets of byPartition.values()) assert.equal([...offsets].sort((a, b) => a - b), offsets.map((_, i) => i));

  const delivered = await eventually(
    () => {
      const all = members.flatMap((member) => events(member, "record")) as unknown as Delivered[];
      return all.length >= RECORDS.length && all;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: "the members to read every record" },
  );
  const where = (record: Delivered) => `${record.partition}@${record.offset}`;
  assert.equal(delivered.map(where).sort(), acked.map(where).sort());
  assert.equal(
    Object.fromEntries(delivered.map((record) => [record.value, `${record.key} ${where(record)}`])),
    Object.fromEntries(acked.map((record) => [record.value, `${record.key} ${where(record)}`])),
  );
  // Each member read only the partitions it holds.
  for (const member of members) {
    const held = holding(member);
    for (const record of events(member, "record") as unknown as Delivered[]) assert.ok(held.includes(record.partition));
  }
  for (const member of members) assert.equal(events(member, "failed"), []);

  // What they committed is the end of every partition.
  const admin = broker.kafka().admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(TOPIC);
  await eventually(
    async () => {
      const [committed] = await admin.fetchOffsets({ groupId: "order-readers", topics: [TOPIC] });
      const offsets = (list: { partition: number; offset: string }[]) => Object.fromEntries(list.map(({ partition, offset }) => [partition, offset]));
      assert.equal(offsets(committed.partitions), offsets(ends.map(({ partition, high }) => ({ partition, offset: high }))));
      return true;
    },
    { timeoutMs: 20_000, what: "the commits to reach the ends of the partitions" },
  );

  // Stopped, each member leaves the group cleanly.
  for (const member of members) assert.is((await stopJava(member)).code, SIGTERM_EXIT, member.stderr());
  for (const member of members) assert.equal(events(member, "closed").length, 1);
  const description = await admin.describeGroups(["order-readers"]);
  assert.is(description.groups[0].state, "Empty");
});

test("a member that leaves hands its partitions to the others, which go on from the committed offsets", async ({ broker, java }) => {
  await createTopic(broker);
  const members = await startGroup(broker, java, "handover");
  const half = RECORDS.length / 2;
  const first = await java.run(PRODUCER, [broker.bootstrap, TOPIC], { input: RECORDS.slice(0, half).map((record) => JSON.stringify(record)).join("\n") });
  assert.is(first.code, 0, first.stderr);
  await eventually(() => readBy(members).length >= half, { timeoutMs: 60_000, what: "the first half to be read" });
  // Every member has committed what it read before one of them leaves.
  await eventually(
    () => members.every((member) => events(member, "committed").reduce((sum, line) => sum + (line.records as number), 0) === events(member, "record").length),
    { timeoutMs: 20_000, what: "the members to commit what they read" },
  );

  const [leaving, ...staying] = members;
  assert.is((await stopJava(leaving)).code, SIGTERM_EXIT, leaving.stderr());
  await eventually(
    () => {
      const held = staying.map(holding);
      return held.every((partitions) => partitions.length === 3) && new Set(held.flat()).size === PARTITIONS;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: "the two that stay to hold three partitions each" },
  );
  const second = await java.run(PRODUCER, [broker.bootstrap, TOPIC], { input: RECORDS.slice(half).map((record) => JSON.stringify(record)).join("\n") });
  assert.is(second.code, 0, second.stderr);
  await eventually(() => readBy(members).length >= RECORDS.length, { timeoutMs: 60_000, what: "the second half to be read" });
  const values = readBy(members).map((record) => record.value);
  assert.is(values.length, RECORDS.length, "no record is read twice");
  assert.equal(values.sort(), RECORDS.map((record) => record.value).sort());
});

test("group.protocol=consumer (KIP-848): two Java members split the partitions, read every record once, and kafka-consumer-groups describes the group", async ({ broker, java }) => {
  await createTopic(broker);
  const group = "modern";
  const members = [0, 1].map((i) => java.start(CONSUMER, [broker.bootstrap, group, TOPIC, `client.id=modern-${i}`, "group.protocol=consumer"]));
  await eventually(() => members.every((member) => holding(member).length === 3), { timeoutMs: 60_000, intervalMs: 100, what: "the two members holding three partitions each" });
  assert.equal([...holding(members[0]), ...holding(members[1])].sort(), [0, 1, 2, 3, 4, 5]);
  const produced = await java.run(PRODUCER, [broker.bootstrap, TOPIC], { input: RECORDS.map((record) => JSON.stringify(record)).join("\n") });
  assert.is(produced.code, 0, produced.stderr);
  await eventually(() => readBy(members).length >= RECORDS.length, { timeoutMs: 60_000, what: "every record read" });
  const values = readBy(members).map((record) => record.value);
  assert.is(values.length, RECORDS.length, "no record is read twice");
  assert.equal(values.sort(), RECORDS.map((record) => record.value).sort());

  const described = await kafkaTool("kafka-consumer-groups", ["--bootstrap-server", broker.bootstrap, "--describe", "--group", group, "--members"]);
  assert.match(described, /modern-0/);
  assert.match(described, /modern-1/);
  const listed = await kafkaTool("kafka-consumer-groups", ["--bootstrap-server", broker.bootstrap, "--list", "--type", "consumer"]);
  assert.match(listed, new RegExp(`^${group}\\s+Consumer`, "im"), listed);
  const offsets = await kafkaTool("kafka-consumer-groups", ["--bootstrap-server", broker.bootstrap, "--describe", "--group", group]);
  assert.match(offsets, new RegExp(`${group}\\s+${TOPIC}\\s+0\\s`), offsets);
  for (const member of members) assert.equal(events(member, "failed"), [], member.stdout());
});

test("a restarted static member gets its partitions back with no rebalance; the AdminClient removes it by its group.instance.id", async ({ broker, java }) => {
  await createTopic(broker);
  const group = "static-readers";
  const member = (id: string) => java.start(CONSUMER, [broker.bootstrap, group, TOPIC, `client.id=${id}`, `group.instance.id=${id}`, "session.timeout.ms=30000"]);
  const rebalanceEvents = (program: JavaProcess) => events(program, "assigned").length + events(program, "revoked").length;
  const a = member("java-a");
  const b = member("java-b");
  await eventually(() => holding(a).length === 3 && holding(b).length === 3, { timeoutMs: 60_000, intervalMs: 100, what: "the two members holding three partitions each" });
  const aPartitions = holding(a);
  const bEvents = rebalanceEvents(b);

  // A static member's close sends no LeaveGroup: its partitions wait for it.
  assert.is((await stopJava(a)).code, SIGTERM_EXIT, a.stderr());
  const feeder = broker.kafka().producer();
  await feeder.connect();
  await feeder.send({ topic: TOPIC, acks: -1, messages: RECORDS.slice(0, 60).map((record, i) => ({ ...record, partition: i % PARTITIONS })) });
  await feeder.disconnect();
  const restarted = member("java-a");
  await eventually(() => holding(restarted).length > 0, { timeoutMs: 60_000, intervalMs: 100, what: "the restarted member assigned" });
  assert.equal(holding(restarted), aPartitions, "the restarted member has its partitions back");
  await eventually(() => events(restarted, "record").length + events(b, "record").length === 60, { timeoutMs: 30_000, intervalMs: 100, what: "every record read" });
  assert.is(rebalanceEvents(b), bEvents, "the other member was never rebalanced");

  const removal = await java.run(ADMIN, [broker.bootstrap], {
    input: [
      JSON.stringify({ call: "removeMembersFromConsumerGroup", group, instances: ["java-a"] }),
      JSON.stringify({ call: "removeMembersFromConsumerGroup", group, instances: ["nobody"] }),
    ].join("\n"),
  });
  const [removed, unknown] = removal.stdout.trim().split("\n").map((line) => JSON.parse(line) as { result?: unknown; error?: unknown });
  assert.is(removed.error, undefined, removal.stdout);
  assert.match(JSON.stringify(unknown.error), "UnknownMemberId", removal.stdout);
  // The removed member finds itself unknown and joins again as a new member: the group rebalances.
  await eventually(() => rebalanceEvents(b) > bEvents, { timeoutMs: 60_000, intervalMs: 100, what: "the other member rebalanced after the removal" });
  await eventually(() => holding(b).length + holding(restarted).length === PARTITIONS, { timeoutMs: 60_000, intervalMs: 100, what: "the partitions shared again" });
  for (const program of [restarted, b]) assert.equal(events(program, "failed"), [], program.stdout());
});

test.run();
