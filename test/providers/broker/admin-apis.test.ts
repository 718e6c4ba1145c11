/**
 * The admin calls operators' tools send, against the embedded broker: kafkajs's admin (describeConfigs,
 * describeCluster, deleteGroups, deleteTopicRecords, createPartitions), kcat, and Sluice's own connection for the
 * flexible versions kafkajs does not speak.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Admin } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BrokerConnection } from "../../../providers/kafka-client/broker-connection";
import { FETCH, LIST_OFFSETS, OFFSET_COMMIT } from "../../../providers/kafka-client/client-apis";
import { ApiCodec, CreatePartitions, DeleteGroups, DeleteRecords, DescribeCluster, DescribeConfigs, ErrorCode, ListGroups, ListOffsets } from "../../../providers/kafka-protocol";
import { eventually } from "../../helpers/eventually";
import { runKcat, startTestBroker, type TestBroker } from "./broker-test-kit";

const CONNECTION = { clientId: "admin-apis", connectTimeoutMs: 5_000, requestTimeoutMs: 10_000, maxResponseBytes: 1 << 24 };
const TOPIC = 2;
const BROKER = 4;
const Source = { TOPIC_CONFIG: 1, STATIC_BROKER_CONFIG: 4, DEFAULT_CONFIG: 5 };

const test = suite<{ broker: TestBroker; dataDir: string }>("broker: the admin APIs operators' tools send");

test.before.each((context) => {
  context.dataDir = mkdtempSync(path.join(os.tmpdir(), "sluice-admin-apis-"));
});

test.after.each(async ({ broker, dataDir }) => {
  await broker?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A file-store broker in the test's data directory, with small segments: 10 records of 10 batches make several. */
const fileBroker = (dataDir: string) => startTestBroker({ storage: "file", dataDir, segmentBytes: 300, retentionMs: 86_400_000 });

async function connectedAdmin(broker: TestBroker): Promise<Admin> {
  const admin = broker.kafka().admin();
  await admin.connect();
  return admin;
}

/** Stops the test's file-store broker and starts another on its data directory; an admin client of the new one. */
async function restartFileBroker(context: { broker: TestBroker; dataDir: string }): Promise<Admin> {
  await context.broker.close();
  context.broker = await fileBroker(context.dataDir);
  return connectedAdmin(context.broker);
}

/** The promise rejects, with an error whose kafkajs type or message matches. */
async function rejects(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await promise.then(
    () => assert.unreachable(`expected a rejection matching ${pattern}`),
    (error: Error & { type?: string }) => assert.match(`${error.type ?? ""} ${error.message}`, pattern),
  );
}

/** A simple commit (no member, as kafka-consumer-groups --reset-offsets makes): the group exists, empty, with an offset. */
async function commitOffset(broker: TestBroker, groupId: string, topic: string, committedOffset: bigint): Promise<void> {
  const connection = await BrokerConnection.open(broker.bootstrap, CONNECTION);
  try {
    const answer = await connection.request(OFFSET_COMMIT, { groupId, memberId: "", groupInstanceId: null, topics: [{ name: topic, partitions: [{ partitionIndex: 0, committedOffset, committedMetadata: null }] }] });
    assert.is(answer.topics[0].partitions[0].errorCode, ErrorCode.NONE);
  } finally {
    connection.close();
  }
}

async function produceOneByOne(broker: TestBroker, topic: string, count: number, partition = 0): Promise<void> {
  const producer = broker.kafka().producer();
  await producer.connect();
  for (let i = 0; i < count; i++) await producer.send({ topic, messages: [{ partition, value: `record-${i}` }] });
}

/** A broker with two groups on topic "events": "finished", empty with a committed offset, and "busy", a stable group of one kafkajs member. */
async function finishedAndBusyGroups(context: { broker: TestBroker }): Promise<Admin> {
  context.broker = await startTestBroker();
  const kafka = context.broker.kafka();
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "events" }] });
  await commitOffset(context.broker, "finished", "events", 5n);
  // Its fetches wait 100 ms for records, not kafkajs's 5 s: disconnecting at the end waits for the one under way.
  const consumer = kafka.consumer({ groupId: "busy", maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: "events" });
  await consumer.run({ eachMessage: async () => undefined });
  await eventually(async () => (await admin.describeGroups(["busy"])).groups[0].state === "Stable", { what: "group busy to be stable" });
  return admin;
}

test("ApiVersions advertises the five admin APIs with the versions Kafka defines", async (context) => {
  context.broker = await startTestBroker();
  const connection = await BrokerConnection.open(context.broker.bootstrap, CONNECTION);
  try {
    const versions = Object.fromEntries([DescribeConfigs, DescribeCluster, DeleteGroups, DeleteRecords, CreatePartitions].map((spec) => [spec.name, connection.versionOf(new ApiCodec(spec))]));
    assert.equal(versions, { DescribeConfigs: 4, DescribeCluster: 1, DeleteGroups: 2, DeleteRecords: 2, CreatePartitions: 3 });
  } finally {
    connection.close();
  }
});

test("describeConfigs reports a topic's configs with where each comes from, and the broker's", async (context) => {
  context.broker = await startTestBroker({ retentionMs: 3_600_000 });
  const admin = await connectedAdmin(context.broker);
  await admin.createTopics({
    topics: [
      { topic: "changelog", configEntries: [{ name: "cleanup.policy", value: "compact" }, { name: "min.insync.replicas", value: "2" }] },
      { topic: "kept-a-day", configEntries: [{ name: "retention.ms", value: "86400000" }] },
    ],
  });
  const { resources } = await admin.describeConfigs({
    includeSynonyms: true,
    resources: [
      { type: TOPIC, name: "changelog" },
      { type: TOPIC, name: "kept-a-day", configNames: ["retention.ms", "retention.bytes"] },
      { type: BROKER, name: "0", configNames: ["node.id", "log.retention.ms", "log.segment.bytes", "num.partitions"] },
    ],
  });
  const entries = (name: string) =>
    Object.fromEntries(resources.find((resource) => resource.resourceName === name)!.configEntries.map((entry) => [entry.configName, [entry.configValue, entry.configSource, entry.readOnly]]));
  // min.insync.replicas is not honoured by this broker, so it is not kept, nor reported as if it were in force.
  assert.equal(entries("changelog"), {
    "cleanup.policy": ["compact", Source.TOPIC_CONFIG, true],
    "retention.ms": ["3600000", Source.STATIC_BROKER_CONFIG, true],
    "retention.bytes": ["-1", Source.DEFAULT_CONFIG, true],
    "segment.bytes": ["134217728", Source.STATIC_BROKER_CONFIG, true],
  });
  assert.equal(entries("kept-a-day"), { "retention.ms": ["86400000", Source.TOPIC_CONFIG, true], "retention.bytes": ["-1", Source.DEFAULT_CONFIG, true] });
  assert.equal(entries("0"), {
    "node.id": ["0", Source.STATIC_BROKER_CONFIG, true],
    "log.retention.ms": ["3600000", Source.STATIC_BROKER_CONFIG, true],
    "log.segment.bytes": ["134217728", Source.STATIC_BROKER_CONFIG, true],
    "num.partitions": ["1", Source.DEFAULT_CONFIG, true],
  });
  const retention = resources.find((resource) => resource.resourceName === "kept-a-day")!.configEntries.find((entry) => entry.configName === "retention.ms")!;
  assert.equal(
    retention.configSynonyms.map(({ configName, configValue, configSource }) => [configName, configValue, configSource]),
    [
      ["retention.ms", "86400000", Source.TOPIC_CONFIG],
      ["log.retention.ms", "3600000", Source.STATIC_BROKER_CONFIG],
      ["log.retention.ms", "604800000", Source.DEFAULT_CONFIG],
    ],
  );

  await rejects(admin.describeConfigs({ includeSynonyms: false, resources: [{ type: TOPIC, name: "missing" }] }), /does not host this topic-partition/);
});

test("createTopics refuses a config Kafka does not know and a cleanup.policy other than compact and delete, as Kafka does", async (context) => {
  context.broker = await startTestBroker();
  const admin = await connectedAdmin(context.broker);
  const refusal = (configEntries: { name: string; value: string }[]) =>
    admin.createTopics({ topics: [{ topic: "refused", configEntries }] }).then(
      () => "created",
      (error: { errors?: { type: string }[] }) => error.errors?.map(({ type }) => type).join(),
    );
  assert.is(await refusal([{ name: "retention.mss", value: "1000" }]), "INVALID_CONFIG");
  assert.is(await refusal([{ name: "cleanup.policy", value: "compact,shred" }]), "INVALID_CONFIG");
  // Kafka's configs this broker does not honour are accepted, as Kafka Streams sets some on its internal topics.
  await admin.createTopics({ topics: [{ topic: "streams-changelog", configEntries: [{ name: "cleanup.policy", value: "compact,delete" }, { name: "message.timestamp.type", value: "CreateTime" }] }] });
  assert.equal(await admin.listTopics(), ["streams-changelog"]);
});

test("a topic's own configs survive a restart of the file store", async (context) => {
  context.broker = await fileBroker(context.dataDir);
  let admin = await connectedAdmin(context.broker);
  await admin.createTopics({ topics: [{ topic: "kept", configEntries: [{ name: "retention.bytes", value: "5000" }] }] });
  admin = await restartFileBroker(context);
  const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: TOPIC, name: "kept", configNames: ["retention.bytes"] }] });
  assert.equal(resources[0].configEntries.map(({ configValue, configSource }) => [configValue, configSource]), [["5000", Source.TOPIC_CONFIG]]);
});

test("DescribeConfigs v0 marks defaults, and v4 (flexible) adds types and documentation when asked", async (context) => {
  context.broker = await startTestBroker();
  const admin = await connectedAdmin(context.broker);
  await admin.createTopics({ topics: [{ topic: "plain" }] });
  const connection = await BrokerConnection.open(context.broker.bootstrap, CONNECTION);
  try {
    const api = new ApiCodec(DescribeConfigs);
    const resources = [{ resourceType: TOPIC, resourceName: "plain", configurationKeys: ["retention.bytes", "segment.bytes"] }];
    const v0 = await connection.request(api, { resources }, 0);
    assert.equal(v0.results[0].configs.map(({ name, isDefault }) => [name, isDefault]), [["retention.bytes", true], ["segment.bytes", false]]);
    const v4 = await connection.request(api, { resources, includeDocumentation: true }, 4);
    const [bytes] = v4.results[0].configs;
    assert.is(bytes.configType, 5, "LONG");
    assert.match(bytes.documentation ?? "", /trimmed/);
    const unknown = await connection.request(api, { resources: [{ resourceType: 8, resourceName: "0", configurationKeys: null }, { resourceType: BROKER, resourceName: "7", configurationKeys: null }] }, 4);
    assert.equal(unknown.results.map(({ errorCode }) => errorCode), [ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_REQUEST]);
  } finally {
    connection.close();
  }
});

test("describeCluster and DescribeCluster name the cluster, its controller and the one broker", async (context) => {
  context.broker = await startTestBroker();
  const admin = await connectedAdmin(context.broker);
  const described = await admin.describeCluster();
  assert.equal(described.brokers, [{ nodeId: 0, host: context.broker.broker.host, port: context.broker.broker.port }]);
  assert.is(described.controller, 0);

  const connection = await BrokerConnection.open(context.broker.bootstrap, CONNECTION);
  try {
    const api = new ApiCodec(DescribeCluster);
    for (const version of [0, 1]) {
      const answer = await connection.request(api, { includeClusterAuthorizedOperations: false }, version);
      assert.equal(
        { errorCode: answer.errorCode, clusterId: answer.clusterId, controllerId: answer.controllerId, brokers: answer.brokers },
        { errorCode: 0, clusterId: described.clusterId, controllerId: 0, brokers: [{ brokerId: 0, host: context.broker.broker.host, port: context.broker.broker.port, rack: null }] },
        `v${version}`,
      );
    }
    const controllers = await connection.request(api, { includeClusterAuthorizedOperations: false, endpointType: 2 }, 1);
    assert.is(controllers.errorCode, ErrorCode.MISMATCHED_ENDPOINT_TYPE);
  } finally {
    connection.close();
  }
});

test("deleteGroups deletes an empty group with its offsets, and refuses a group with members or none at all", async (context) => {
  const admin = await finishedAndBusyGroups(context);

  assert.equal(await admin.deleteGroups(["finished"]), [{ groupId: "finished", errorCode: ErrorCode.NONE }]);
  const [offsets] = await admin.fetchOffsets({ groupId: "finished", topics: ["events"] });
  assert.equal(offsets.partitions, [{ partition: 0, offset: "-1", metadata: null }]);
  assert.not.ok((await admin.listGroups()).groups.some((group) => group.groupId === "finished"));

  const refused = await admin.deleteGroups(["busy", "never-was"]).then(
    () => undefined,
    (error: { groups?: { groupId: string; errorCode: number }[] }) => error.groups,
  );
  assert.equal(refused?.map(({ groupId, errorCode }) => [groupId, errorCode]).sort(), [["busy", ErrorCode.NON_EMPTY_GROUP], ["never-was", ErrorCode.GROUP_ID_NOT_FOUND]]);
});

test("ListGroups v4 and v5 give each group's state and type, and filter by them whatever their case, as kafka-consumer-groups --list --state asks", async (context) => {
  await finishedAndBusyGroups(context);

  const connection = await BrokerConnection.open(context.broker.bootstrap, CONNECTION);
  try {
    const api = new ApiCodec(ListGroups);
    const list = async (version: number, statesFilter: string[] = [], typesFilter: string[] = []) =>
      (await connection.request(api, { statesFilter, typesFilter }, version)).groups.map(({ groupId, protocolType, groupState, groupType }) => [groupId, protocolType, groupState, groupType]).sort();
    assert.equal(await list(5), [["busy", "consumer", "Stable", "classic"], ["finished", "", "Empty", "classic"]]);
    assert.equal(await list(4, ["stable"]), [["busy", "consumer", "Stable", ""]]);
    assert.equal(await list(5, ["Empty", "Dead"]), [["finished", "", "Empty", "classic"]]);
    assert.equal(await list(5, [], ["Classic"]), [["busy", "consumer", "Stable", "classic"], ["finished", "", "Empty", "classic"]]);
    assert.equal(await list(5, [], ["consumer"]), []);
    // Before v4 the filters and the state are not on the wire.
    assert.equal(await list(2, ["stable"]), [["busy", "consumer", "", ""], ["finished", "", "", ""]]);
  } finally {
    connection.close();
  }
});

test("a group known only by its offsets after a restart is listed and described as Empty, as Kafka loads it, then deleted for good", async (context) => {
  context.broker = await fileBroker(context.dataDir);
  let admin = await connectedAdmin(context.broker);
  await admin.createTopics({ topics: [{ topic: "events" }] });
  await commitOffset(context.broker, "old", "events", 3n);

  admin = await restartFileBroker(context);
  assert.equal((await admin.listGroups()).groups, [{ groupId: "old", protocolType: "" }]);
  const [described] = (await admin.describeGroups(["old"])).groups;
  assert.equal([described.state, described.members], ["Empty", []]);
  assert.equal(await admin.deleteGroups(["old"]), [{ groupId: "old", errorCode: ErrorCode.NONE }]);

  admin = await restartFileBroker(context);
  const [offsets] = await admin.fetchOffsets({ groupId: "old", topics: ["events"] });
  assert.is(offsets.partitions[0].offset, "-1");
});

test("deleteTopicRecords moves the log start: segments below it go, reads below it are out of range, and it survives a restart", async (context) => {
  context.broker = await fileBroker(context.dataDir);
  let admin = await connectedAdmin(context.broker);
  await admin.createTopics({ topics: [{ topic: "purged" }] });
  await produceOneByOne(context.broker, "purged", 10);
  const segments = () => readdirSync(path.join(context.dataDir, "purged-0")).filter((name) => name.endsWith(".log"));
  const before = segments().length;
  assert.ok(before >= 3, `${before} segments`);

  // kafkajs finds the leaders in the metadata it holds, and an admin client holds none of a topic it did not ask about.
  await admin.fetchTopicMetadata({ topics: ["purged"] });
  await admin.deleteTopicRecords({ topic: "purged", partitions: [{ partition: 0, offset: "6" }] });
  const [offsets] = await admin.fetchTopicOffsets("purged");
  assert.equal([offsets.low, offsets.high], ["6", "10"]);
  assert.ok(segments().length < before, `${segments().length} of ${before} segments left`);
  const bases = segments().map((name) => Number(name.slice(0, 20))).sort((a, b) => a - b);
  assert.ok(bases[0] <= 6 && (bases.length === 1 || bases[1] > 6), `the first segment left holds offset 6: ${bases}`);

  const connection = await BrokerConnection.open(context.broker.bootstrap, CONNECTION);
  try {
    const fetchAt = async (fetchOffset: bigint) => {
      const answer = await connection.request(FETCH, {
        replicaId: -1,
        maxWaitMs: 0,
        minBytes: 0,
        isolationLevel: 0,
        sessionId: 0,
        topics: [{ topic: "purged", partitions: [{ partition: 0, fetchOffset, partitionMaxBytes: 1 << 20 }] }],
        forgottenTopicsData: [],
        rackId: "",
      });
      return answer.responses[0].partitions[0];
    };
    assert.is((await fetchAt(5n)).errorCode, ErrorCode.OFFSET_OUT_OF_RANGE);
    const at6 = await fetchAt(6n);
    assert.equal([at6.errorCode, at6.logStartOffset], [ErrorCode.NONE, 6n]);
    // A timestamp older than every record finds the first one kept.
    const byTime = await connection.request(LIST_OFFSETS, { replicaId: -1, isolationLevel: 0, topics: [{ name: "purged", partitions: [{ partitionIndex: 0, timestamp: 0n }] }] });
    assert.is(byTime.topics[0].partitions[0].offset, 6n);
  } finally {
    connection.close();
  }

  // Deleting before an offset below the start changes nothing; beyond the end is refused.
  await admin.deleteTopicRecords({ topic: "purged", partitions: [{ partition: 0, offset: "2" }] });
  const beyond = await admin.deleteTopicRecords({ topic: "purged", partitions: [{ partition: 0, offset: "11" }] }).then(
    () => undefined,
    (error: { cause?: { partitions?: { error: { type: string } }[] } }) => error.cause?.partitions?.map((partition) => partition.error.type),
  );
  assert.equal(beyond, ["OFFSET_OUT_OF_RANGE"]);

  admin = await restartFileBroker(context);
  const [restarted] = await admin.fetchTopicOffsets("purged");
  assert.equal([restarted.low, restarted.high], ["6", "10"]);
  const consumed = await runKcat(context.broker.bootstrap, ["-C", "-t", "purged", "-o", "beginning", "-e", "-q", "-f", "%o %s\\n"]);
  assert.is(consumed.stdout, ["6 record-6", "7 record-7", "8 record-8", "9 record-9", ""].join("\n"));
});

test("DeleteRecords -1 deletes every record there is", async (context) => {
  context.broker = await startTestBroker();
  const admin = await connectedAdmin(context.broker);
  await admin.createTopics({ topics: [{ topic: "emptied" }] });
  await produceOneByOne(context.broker, "emptied", 3);
  await admin.fetchTopicMetadata({ topics: ["emptied"] });
  await admin.deleteTopicRecords({ topic: "emptied", partitions: [{ partition: 0, offset: "-1" }] });
  const [offsets] = await admin.fetchTopicOffsets("emptied");
  assert.equal([offsets.low, offsets.high], ["3", "3"]);
});

test("createPartitions grows a topic, kcat -L sees it and a restart keeps it; fewer or as many are refused", async (context) => {
  context.broker = await fileBroker(context.dataDir);
  let admin = await connectedAdmin(context.broker);
  await admin.createTopics({ topics: [{ topic: "growing", numPartitions: 1 }] });
  await produceOneByOne(context.broker, "growing", 2);

  assert.is(await admin.createPartitions({ topicPartitions: [{ topic: "growing", count: 3 }], validateOnly: true }), undefined);
  assert.is((await admin.fetchTopicMetadata({ topics: ["growing"] })).topics[0].partitions.length, 1, "validateOnly changes nothing");
  await admin.createPartitions({ topicPartitions: [{ topic: "growing", count: 3 }] });
  await produceOneByOne(context.broker, "growing", 1, 2);

  const listed = await runKcat(context.broker.bootstrap, ["-L", "-t", "growing"]);
  assert.match(listed.stdout, /topic "growing" with 3 partitions/);
  for (const count of [2, 3]) {
    await rejects(admin.createPartitions({ topicPartitions: [{ topic: "growing", count }] }), /INVALID_PARTITIONS|Number of partitions/i);
  }
  await rejects(admin.createPartitions({ topicPartitions: [{ topic: "growing", count: 4, assignments: [[3]] }] }), /replica assignment/i);

  admin = await restartFileBroker(context);
  const offsets = await admin.fetchTopicOffsets("growing");
  assert.equal(offsets.map(({ partition, high }) => [partition, high]), [[0, "2"], [1, "0"], [2, "1"]]);
});

test("the flexible versions answer as the older ones do", async (context) => {
  context.broker = await startTestBroker();
  const admin = await connectedAdmin(context.broker);
  await admin.createTopics({ topics: [{ topic: "flexible" }] });
  await produceOneByOne(context.broker, "flexible", 4);
  await commitOffset(context.broker, "gone", "flexible", 1n);
  const connection = await BrokerConnection.open(context.broker.bootstrap, CONNECTION);
  try {
    const deleted = await connection.request(new ApiCodec(DeleteRecords), { topics: [{ name: "flexible", partitions: [{ partitionIndex: 0, offset: 2n }, { partitionIndex: 5, offset: 0n }] }], timeoutMs: 1_000 }, 2);
    assert.equal(deleted.topics[0].partitions, [
      { partitionIndex: 0, lowWatermark: 2n, errorCode: ErrorCode.NONE },
      { partitionIndex: 5, lowWatermark: -1n, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION },
    ]);
    const grown = await connection.request(new ApiCodec(CreatePartitions), { topics: [{ name: "flexible", count: 2, assignments: [{ brokerIds: [0] }] }], timeoutMs: 1_000, validateOnly: false }, 3);
    assert.equal(grown.results, [{ name: "flexible", errorCode: ErrorCode.NONE, errorMessage: null }]);
    const offsets = await connection.request(
      new ApiCodec(ListOffsets),
      { replicaId: -1, isolationLevel: 0, topics: [{ name: "flexible", partitions: [-1n, -2n, -4n].map((timestamp) => ({ partitionIndex: 0, timestamp })) }] },
      8,
    );
    // Latest, earliest, and the earliest kept locally, which is the earliest here: nothing goes to tiered storage.
    assert.equal(offsets.topics[0].partitions.map(({ errorCode, offset }) => [errorCode, offset]), [[ErrorCode.NONE, 4n], [ErrorCode.NONE, 2n], [ErrorCode.NONE, 2n]]);
    const groups = await connection.request(new ApiCodec(DeleteGroups), { groupsNames: ["gone", "gone"] }, 2);
    assert.equal(groups.results, [{ groupId: "gone", errorCode: ErrorCode.NONE }, { groupId: "gone", errorCode: ErrorCode.GROUP_ID_NOT_FOUND }]);
  } finally {
    connection.close();
  }
  assert.is((await admin.fetchTopicMetadata({ topics: ["flexible"] })).topics[0].partitions.length, 2);
});

test.run();
