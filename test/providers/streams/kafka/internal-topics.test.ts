import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../../kernel/contracts/streams/dsl";
import { JoinWindows, StreamJoined, Stores } from "../../../../index";
import { ClusterAdmin, type NewTopic } from "../../../../providers/kafka-client";
import { ClusterMetadata } from "../../../../providers/kafka-client/cluster-metadata";
import { ConnectionPool } from "../../../../providers/kafka-client/connection-pool";
import { ensureTopics, type TopicCreation } from "../../../../providers/streams/kafka/topics/internal-topics";
import { applicationConfig } from "../../../../providers/streams/streams-config";
import { buildTopology } from "../../../../providers/streams/engine/build-topology";
import { startTestBroker, type TestBroker } from "../../broker/broker-test-kit";

const test = suite<{ broker: TestBroker; admin: ClusterAdmin }>("streams: the topics an application needs");

const adminOf = (broker: TestBroker) => new ClusterAdmin({ bootstrapServers: [broker.bootstrap], clientId: "internal-topics-test" });

test.before.each(async (context) => {
  context.broker = await startTestBroker({ autoCreateTopics: false });
  context.admin = adminOf(context.broker);
});

test.after.each(async ({ broker, admin }) => {
  admin.close();
  await broker.close();
});

/** Topics created ahead of the application, as a user would. */
const existing = (topics: Record<string, number>): NewTopic[] => Object.entries(topics).map(([name, partitions]) => ({ name, partitions, replicationFactor: -1 }));

const topologyOf = (id: string, topology: (builder: StreamsBuilder) => void) =>
  buildTopology({ name: id, version: "1", config: { "application.id": id }, topology }, applicationConfig([{ values: { "application.id": id }, source: "the test" }]));

/** clicks → count per key into `per-user`; clicks → re-keyed by page → count into `per-page` → page-counts. */
const topology = topologyOf("sizing", (builder) => {
  const clicks = builder.stream<string, string>("clicks");
  clicks.groupByKey().count({ storeName: "per-user" });
  clicks
    .groupBy((_user, page) => page)
    .count({ storeName: "per-page" })
    .toStream()
    .to("page-counts");
});

const creation = (defaultPartitions: number, more: Partial<TopicCreation> = {}): TopicCreation => ({ autoCreate: true, defaultPartitions, replicationFactor: -1, internalConfigs: {}, windowChangelogAdditionalRetentionMs: 86_400_000, singles: [], ...more });

async function partitionCounts(admin: ClusterAdmin): Promise<Record<string, number>> {
  return Object.fromEntries([...(await admin.partitionCounts(await admin.listTopics()))].sort());
}

test("internal topics take their sub-topology's width, missing inputs and outputs num.partitions, and existing topics stay as they are", async ({ admin }) => {
  await admin.createTopics(existing({ clicks: 3 }));
  const counts = await ensureTopics(admin, topology, creation(2));
  const repartition = [...topology.definition.repartitionTopics][0];
  const expected = {
    clicks: 3,
    "page-counts": 2,
    [repartition]: 3,
    "sizing-per-user-changelog": 3,
    "sizing-per-page-changelog": 3,
  };
  assert.equal(Object.fromEntries([...counts].sort()), Object.fromEntries(Object.entries(expected).sort()));
  assert.equal(await partitionCounts(admin), Object.fromEntries(Object.entries(expected).sort()));

  // A second run finds everything in place and creates nothing.
  assert.equal(Object.fromEntries([...(await ensureTopics(admin, topology, creation(5)))].sort()), Object.fromEntries(Object.entries(expected).sort()));
  assert.equal(await partitionCounts(admin), Object.fromEntries(Object.entries(expected).sort()));
});

test("a missing input is created with num.partitions and sizes the internal topics after it", async ({ admin }) => {
  const counts = await ensureTopics(admin, topology, creation(4));
  assert.is(counts.get("clicks"), 4);
  assert.is(counts.get("sizing-per-page-changelog"), 4);
  assert.is((await partitionCounts(admin))["sizing-per-user-changelog"], 4);
});

/** The replication factor and configs of each topic `ensureTopics` creates for `of`. */
async function createdTopics(admin: ClusterAdmin, of: typeof topology, more: Partial<TopicCreation>): Promise<Record<string, [number, Record<string, string>]>> {
  const requests: (readonly NewTopic[])[] = [];
  const recording = new Proxy(admin, {
    get: (target, property) => (property === "createTopics" ? (topics: readonly NewTopic[]) => (requests.push(topics), target.createTopics(topics)) : Reflect.get(target, property)),
  });
  await ensureTopics(recording, of, creation(1, more));
  return Object.fromEntries(requests.flat().map((topic) => [topic.name, [topic.replicationFactor, { ...topic.configs }]]));
}

test("created topics get the replication factor; internal ones Kafka Streams' configs (changelogs compacted, repartition topics kept until purged) under the topic.* ones", async ({ admin }) => {
  const created = await createdTopics(admin, topology, { replicationFactor: 1, internalConfigs: { "min.insync.replicas": "1", "segment.bytes": "1048576" }, singles: ["sizing-dlq"] });
  const repartition = [...topology.definition.repartitionTopics][0];
  const changelog = { "cleanup.policy": "compact", "message.timestamp.type": "CreateTime", "min.insync.replicas": "1", "segment.bytes": "1048576" };
  assert.equal(created, {
    clicks: [1, {}],
    "page-counts": [1, {}],
    "sizing-dlq": [1, {}],
    [repartition]: [1, { "cleanup.policy": "delete", "retention.ms": "-1", "segment.bytes": "1048576", "message.timestamp.type": "CreateTime", "min.insync.replicas": "1" }],
    "sizing-per-user-changelog": [1, changelog],
    "sizing-per-page-changelog": [1, changelog],
  });
});

test("window and session stores' changelogs are compacted and deleted past the store's retention plus windowstore.changelog.additional.retention.ms", async ({ admin }) => {
  const windowed = topologyOf("windowed", (builder) => {
    const clicks = builder.stream<string, string>("clicks");
    clicks.groupByKey().windowedBy({ type: "tumbling", sizeMs: 60_000, graceMs: 0 }).count({ storeName: "per-minute", retentionMs: 3_600_000 });
    clicks.groupByKey().windowedBy({ type: "session", gapMs: 300_000 }).count({ storeName: "sessions" });
  });
  const created = await createdTopics(admin, windowed, { windowChangelogAdditionalRetentionMs: 1_000 });
  assert.equal(created["windowed-per-minute-changelog"], [-1, { "cleanup.policy": "compact,delete", "retention.ms": "3601000", "message.timestamp.type": "CreateTime" }]);
  // A session store keeps gap + grace by default, as in Kafka Streams.
  assert.equal(created["windowed-sessions-changelog"], [-1, { "cleanup.policy": "compact,delete", "retention.ms": String(300_000 + 1_000), "message.timestamp.type": "CreateTime" }]);
});

test("a store built withLoggingEnabled(config), or materialized with changelogConfigs, gets a changelog with those configs over the defaults and topic.* ones; one built withLoggingDisabled() or materialized with logging: false gets none", async ({ admin }) => {
  const logged = topologyOf("logged", (builder) => {
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("kept"), "string", "string").withLoggingEnabled({ "min.compaction.lag.ms": "5000", "segment.bytes": "2097152" }));
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("unlogged"), "string", "string").withLoggingEnabled({ "segment.bytes": "2097152" }).withLoggingDisabled());
    const clicks = builder.stream<string, string>("clicks");
    clicks.process(() => ({ process: () => undefined }), ["kept", "unlogged"]);
    clicks.groupByKey().count({ storeName: "uncounted", logging: false });
    clicks.groupByKey().windowedBy({ type: "tumbling", sizeMs: 1_000 }).count({ storeName: "uncounted-windows", logging: false });
    clicks.groupByKey().windowedBy({ type: "tumbling", sizeMs: 1_000 }).count({ storeName: "counted", retentionMs: 5_000, changelogConfigs: { "retention.ms": "9000" } });
    // Derived tables, table joins and table re-groupings take the same options.
    const users = builder.table<string, string>("users", {}, { logging: false });
    const named = users.filter((_, name) => name !== "", { storeName: "unlogged-filter", logging: false });
    named.mapValues((name) => name.length, { storeName: "unlogged-lengths", logging: false });
    named.join(users, (a, b) => a + b, { storeName: "unlogged-join", logging: false });
    users.groupBy((id, name) => ({ key: name, value: id })).count({ storeName: "unlogged-regrouped", logging: false });
  });
  const created = await createdTopics(admin, logged, { internalConfigs: { "segment.bytes": "1048576" } });
  assert.equal(created["logged-kept-changelog"], [-1, { "cleanup.policy": "compact", "message.timestamp.type": "CreateTime", "segment.bytes": "2097152", "min.compaction.lag.ms": "5000" }]);
  // A DSL Materialized's changelogConfigs (Kafka Streams' Materialized.withLoggingEnabled) likewise.
  assert.equal(created["logged-counted-changelog"], [-1, { "cleanup.policy": "compact,delete", "retention.ms": "9000", "message.timestamp.type": "CreateTime", "segment.bytes": "1048576" }]);
  assert.equal(Object.keys(created).filter((topic) => topic.endsWith("-changelog")).sort(), ["logged-counted-changelog", "logged-kept-changelog"]);
});

test("a stream-stream join's window stores' changelogs are only deleted past their retention (each record has a key of its own), its shared store's compacted; StreamJoined's topic configs go over them", async ({ admin }) => {
  const joined = topologyOf("joined", (builder) => {
    const options = StreamJoined.as<string, string, string>("pairs").withLoggingEnabled({ "segment.bytes": "1048576" });
    builder.stream("left").leftJoin(builder.stream("right"), (l, r) => `${l}${r}`, JoinWindows.ofTimeDifferenceAndGrace(10, 5), options).to("out");
  });
  const created = await createdTopics(admin, joined, { windowChangelogAdditionalRetentionMs: 1_000 });
  const windowConfigs = { "cleanup.policy": "delete", "retention.ms": String(25 + 1_000), "message.timestamp.type": "CreateTime", "segment.bytes": "1048576" };
  assert.equal(created["joined-pairs-this-join-store-changelog"], [-1, windowConfigs]);
  assert.equal(created["joined-pairs-outer-other-join-store-changelog"], [-1, windowConfigs]);
  assert.equal(created["joined-pairs-left-shared-join-store-changelog"], [-1, { "cleanup.policy": "compact", "message.timestamp.type": "CreateTime", "segment.bytes": "1048576" }]);
});

test("a versioned store's changelog is compacted only once a version is older than the history retention plus a day", async ({ admin }) => {
  const versioned = topologyOf("versioned", (builder) => {
    builder.addStateStore(Stores.versionedKeyValueStoreBuilder(Stores.persistentVersionedKeyValueStore("prices", 3_600_000), "string", "string"));
    builder.stream<string, string>("quotes").process(() => ({ process: () => undefined }), ["prices"]);
  });
  const created = await createdTopics(admin, versioned, { windowChangelogAdditionalRetentionMs: 1_000 });
  assert.equal(created["versioned-prices-changelog"], [-1, { "cleanup.policy": "compact", "min.compaction.lag.ms": String(3_600_000 + 86_400_000), "message.timestamp.type": "CreateTime" }]);
});

test("with auto.create.topics off, missing inputs and outputs stop the application naming them; once they exist, the internal topics are created", async ({ admin }) => {
  const refusal = await ensureTopics(admin, topology, creation(2, { autoCreate: false, singles: ["sizing-dlq"] })).then(
    () => "accepted",
    (error: Error) => error.message,
  );
  assert.is(refusal, "topics missing on the cluster: clicks (input), page-counts (output); create them, or set streams.auto.create.topics=true to have Sluice create them");
  assert.equal(await admin.listTopics(), []);

  await admin.createTopics(existing({ clicks: 2 }));
  assert.match(await ensureTopics(admin, topology, creation(2, { autoCreate: false })).then(() => "accepted", (error: Error) => error.message), /^topics missing on the cluster: page-counts \(output\);/);
  await admin.createTopics(existing({ "page-counts": 1 }));
  await ensureTopics(admin, topology, creation(2, { autoCreate: false, singles: ["sizing-dlq"] }));
  const repartition = [...topology.definition.repartitionTopics][0];
  assert.equal(await partitionCounts(admin), { clicks: 2, "page-counts": 1, [repartition]: 2, "sizing-dlq": 1, "sizing-per-page-changelog": 2, "sizing-per-user-changelog": 2 });
});

test("a changelog with fewer partitions than its tasks' input is an error naming both", async ({ admin }) => {
  await admin.createTopics(existing({ clicks: 3, "sizing-per-user-changelog": 1 }));
  const refusal = await ensureTopics(admin, topology, creation(1)).then(() => "accepted", (error: Error) => error.message);
  assert.is(refusal, "internal topic sizing-per-user-changelog has 1 partition, expected 3 (the partitions of clicks, which size its tasks); delete it so that it is created again");
});

test("an existing repartition topic wider than the input it re-keys is an error naming both, as in Kafka Streams", async ({ admin }) => {
  const repartition = [...topology.definition.repartitionTopics][0];
  await admin.createTopics(existing({ clicks: 1, [repartition]: 2 }));
  const refusal = await ensureTopics(admin, topology, creation(1)).then(() => "accepted", (error: Error) => error.message);
  assert.is(refusal, `internal topic ${repartition} has 2 partitions, expected 1 (the partitions of clicks, which size its tasks); delete it so that it is created again`);
});

test("two instances setting up at once both return only once every topic has its leaders", async () => {
  // On disk, a topic's creation takes a while, and a second CreateTopics meanwhile is told it already exists.
  const dataDir = await mkdtemp(join(tmpdir(), "sluice-topics-"));
  const broker = await startTestBroker({ storage: "file", dataDir, autoCreateTopics: false });
  const pool = new ConnectionPool({ clientId: "probe", connectTimeoutMs: 5_000, requestTimeoutMs: 5_000, maxResponseBytes: 1 << 20 });
  try {
    const [first, second] = [adminOf(broker), adminOf(broker)];
    const topics = ["clicks", "page-counts", ...topology.definition.repartitionTopics, "sizing-per-user-changelog", "sizing-per-page-changelog"];
    // Metadata without retries: what a consumer of the new topics sees at once.
    const unled = async (admin: ClusterAdmin) => {
      await ensureTopics(admin, topology, creation(2));
      const metadata = new ClusterMetadata([broker.bootstrap], pool);
      await metadata.refresh(topics);
      return topics.filter((topic) => metadata.route(topic, 0).address === null);
    };
    assert.equal(await Promise.all([unled(first), unled(second)]), [[], []]);
    first.close();
    second.close();
  } finally {
    pool.close();
    await broker.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test.run();
