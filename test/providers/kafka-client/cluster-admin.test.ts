/**
 * Sluice's cluster admin against the embedded broker, its answers checked with kafkajs, an independent client:
 * topics created with partition counts and configs, log starts and ends, records deleted, a group's committed
 * offsets and members, and errors that name what failed.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ClusterAdmin, ClusterAdminError, type ClusterAdminOptions } from "../../../providers/kafka-client";
import { ApiCodec, ByteReader, decodeAssignment, decodeSubscription, ErrorCode, Metadata } from "../../../providers/kafka-protocol";
import { eventually } from "../../helpers/eventually";
import { KafkaProxy } from "../../helpers/kafka-proxy";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";

const test = suite<{ broker: TestBroker; admins: ClusterAdmin[] }>("kafka client: cluster admin");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ autoCreateTopics: false });
  context.admins = [];
});

test.after.each(async ({ broker, admins }) => {
  for (const admin of admins) admin.close();
  await broker.close();
});

function adminFor(context: { broker: TestBroker; admins: ClusterAdmin[] }, options: Partial<ClusterAdminOptions> = {}): ClusterAdmin {
  const admin = new ClusterAdmin({ bootstrapServers: [context.broker.bootstrap], clientId: "admin-test", ...options });
  context.admins.push(admin);
  return admin;
}

test("creates topics with their partition counts and configs, which kafkajs then sees; an existing topic is no error", async (context) => {
  const admin = adminFor(context);
  const topics = [
    { name: "orders", partitions: 3, replicationFactor: -1, configs: { "cleanup.policy": "compact", "retention.ms": "-1" } },
    { name: "audit", partitions: 1, replicationFactor: 1 },
  ];
  await admin.createTopics(topics);
  await admin.createTopics(topics);
  assert.equal((await admin.listTopics()).filter((topic) => !topic.startsWith("__")).sort(), ["audit", "orders"]);
  assert.equal(await admin.partitionCounts(["orders", "audit", "missing"]), new Map([["orders", 3], ["audit", 1]]));
  const configs = await admin.describeTopicConfigs("orders");
  assert.is(configs.get("cleanup.policy"), "compact");
  assert.is(configs.get("retention.ms"), "-1");

  const kafkajs = context.broker.kafka().admin();
  await kafkajs.connect();
  const metadata = await kafkajs.fetchTopicMetadata({ topics: ["orders", "audit"] });
  assert.equal(metadata.topics.map((topic) => [topic.name, topic.partitions.length]).sort(), [["audit", 1], ["orders", 3]]);
  const [described] = (await kafkajs.describeConfigs({ resources: [{ type: 2, name: "orders", configNames: ["cleanup.policy"] }], includeSynonyms: false })).resources;
  assert.equal(described.configEntries.map((entry) => [entry.configName, entry.configValue]), [["cleanup.policy", "compact"]]);
});

test("a topic the cluster refuses is an error naming the topic and the cause, not retried", async (context) => {
  const admin = adminFor(context);
  const started = Date.now();
  const refused = await admin.createTopics([{ name: "wide", partitions: 1, replicationFactor: 3 }]).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.instance(refused, ClusterAdminError);
  assert.match((refused as Error).message, /creating topic wide failed: INVALID_REPLICATION_FACTOR/);
  assert.ok(Date.now() - started < 5_000, "an error no retry cures is thrown at once");
  const unknownConfig = await admin.createTopics([{ name: "odd", partitions: 1, replicationFactor: -1, configs: { "no.such.config": "1" } }]).catch((error: Error) => error.message);
  assert.match(String(unknownConfig), /creating topic odd failed: INVALID_CONFIG/);
});

test("the log start and end of each partition; deleting records moves the start", async (context) => {
  const admin = adminFor(context);
  await admin.createTopics([{ name: "events", partitions: 2, replicationFactor: -1 }]);
  const producer = context.broker.kafka().producer();
  await producer.connect();
  await producer.send({ topic: "events", messages: Array.from({ length: 5 }, (_, index) => ({ partition: 0, value: `e${index}` })) });
  await producer.send({ topic: "events", messages: [{ partition: 1, value: "only" }] });
  assert.equal(await admin.offsetsOf("events"), new Map([[0, { low: 0, high: 5 }], [1, { low: 0, high: 1 }]]));
  await admin.deleteRecords("events", new Map([[0, 3]]));
  assert.equal(await admin.offsetsOf("events"), new Map([[0, { low: 3, high: 5 }], [1, { low: 0, high: 1 }]]));
  assert.equal(await admin.offsetsOf("nowhere"), new Map());

  const kafkajs = context.broker.kafka().admin();
  await kafkajs.connect();
  const ends = await kafkajs.fetchTopicOffsets("events");
  assert.equal(ends.map(({ partition, low, high }) => [partition, low, high]).sort(), [[0, "3", "5"], [1, "0", "1"]]);
});

test("a topic the metadata lists without leaders (a broker restarting) is asked again, not taken for one without partitions", async (context) => {
  await adminFor(context).createTopics([{ name: "electing", partitions: 2, replicationFactor: -1 }]);
  const producer = context.broker.kafka().producer();
  await producer.connect();
  await producer.send({ topic: "electing", messages: [{ partition: 1, value: "one" }] });
  await producer.disconnect();
  const [host, port] = context.broker.bootstrap.split(":");
  const proxy = await KafkaProxy.start(host, Number(port));
  try {
    // Each of the next two Metadata answers lists the topic as LEADER_NOT_AVAILABLE, without partitions.
    const metadata = new ApiCodec(Metadata);
    proxy.rewriteAnswers(Metadata.apiKey, 2, (frame, version) => {
      const reader = new ByteReader(frame.subarray(4));
      const correlationId = reader.int32();
      const answer = metadata.decodeResponse(reader, version);
      for (const topic of answer.topics) Object.assign(topic, { errorCode: ErrorCode.LEADER_NOT_AVAILABLE, partitions: [] });
      return Buffer.concat(metadata.encodeResponseFrame(correlationId, version, answer));
    });
    const admin = adminFor(context, { bootstrapServers: [`${host}:${proxy.port}`], retryBackoffMs: 10 });
    assert.equal(await admin.offsetsOf("electing"), new Map([[0, { low: 0, high: 0 }], [1, { low: 0, high: 1 }]]));
  } finally {
    await proxy.close();
  }
});

test("a group's committed offsets and its members, with their subscriptions and assignments", async (context) => {
  const admin = adminFor(context);
  await admin.createTopics([{ name: "clicks", partitions: 2, replicationFactor: -1 }]);
  const producer = context.broker.kafka().producer();
  await producer.connect();
  await producer.send({ topic: "clicks", messages: [{ partition: 0, value: "a" }, { partition: 0, value: "b" }, { partition: 1, value: "c" }] });
  const consumer = context.broker.kafka().consumer({ groupId: "readers" });
  await consumer.connect();
  await consumer.subscribe({ topic: "clicks", fromBeginning: true });
  let seen = 0;
  await consumer.run({ eachMessage: async () => void seen++ });
  await eventually(() => (seen === 3 ? true : undefined), { timeoutMs: 20_000, what: "the consumer read three records" });

  const committed = await eventually(
    async () => {
      const offsets = await admin.committedOffsets("readers", { clicks: [0, 1] });
      return offsets.every(({ offset }) => offset >= 0) ? offsets : undefined;
    },
    { timeoutMs: 20_000, what: "the group committed both partitions" },
  );
  assert.equal(committed.sort((a, b) => a.partition - b.partition), [
    { topic: "clicks", partition: 0, offset: 2, metadata: null },
    { topic: "clicks", partition: 1, offset: 1, metadata: null },
  ]);
  assert.equal(await admin.committedOffsets("nobody", { clicks: [0] }), [{ topic: "clicks", partition: 0, offset: -1, metadata: "" }]);

  const group = await admin.describeGroup("readers");
  assert.is(group.state, "Stable");
  assert.is(group.members.length, 1);
  assert.equal(decodeSubscription(group.members[0].metadata).topics, ["clicks"]);
  assert.equal(decodeAssignment(group.members[0].assignment), { clicks: [0, 1] });
  await consumer.disconnect();
  assert.equal((await admin.describeGroup("nobody")).members, []);
});

test("a cluster that cannot be reached fails the call after its time, naming what was asked and why", async (context) => {
  const admin = adminFor(context, { bootstrapServers: ["127.0.0.1:1"], apiTimeoutMs: 300, retryBackoffMs: 20 });
  const failure = await admin.listTopics().catch((error: Error) => error.message);
  assert.match(String(failure), /^listing the topics did not succeed within 300 ms: connection to broker 127\.0\.0\.1:1/);
});

test.run();
