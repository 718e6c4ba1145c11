/**
 * Sluice on Apache Kafka: the example applications and deployed ones run on a real three-node Apache Kafka 4.x
 * cluster (the reference jars), over SASL_SSL with SCRAM-SHA-512 and over mutual TLS, checked with Kafka's own
 * command-line tools and Java clients; through a broker SIGKILLed under load and a rolling restart of all three;
 * with every request version Sluice sends held against what Kafka accepts. One cluster serves the whole file, and
 * the tests run in order on it: each leaves the applications' topics and groups as the next one expects.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { startKafkaCluster, type KafkaCluster } from "../../helpers/kafka-cluster";
import { kafkaTool, startKafkaTool } from "../../helpers/kafka-tools";
import { startRequestRecorder, type RecordedRequest, type RequestRecorder } from "../../helpers/request-recorder";
import { http } from "../../helpers/sluice";
import { countsOf, sorted, trueCounts } from "../../providers/streams/wordcount-processes";
import {
  deploy,
  lastValues,
  parseGroupOffsets,
  parseTopicDescriptions,
  queryRecords,
  startSluiceOn,
  stateChanges,
  stateOf,
  untilCounted,
  type SluiceOnKafka,
} from "./sluice-on-kafka-kit";

const test = suite("Sluice on Apache Kafka");

let cluster: KafkaCluster;
let recorder: RequestRecorder;
/** What Kafka (the reference jars) accepts of each API: ProtocolVersions.java. */
let accepted: Map<number, { name: string; key: number; oldest: number; latest: number; deprecated: number[] }>;
const running: SluiceOnKafka[] = [];

const MINUTE = 60_000;
/** A recent minute, so that the records outlive the topics' time retention. */
const T0 = Math.floor(Date.now() / MINUTE) * MINUTE - 30 * MINUTE;
const INPUTS = ["words", "word-counts", "pageviews", "clicks", "readings", "words-b", "word-counts-b"];
/** Every line written to `words` so far: wordcount's true counts. */
const wordsFed: string[] = [];
const wordsBFed: string[] = [];

async function started(instance: Promise<SluiceOnKafka>): Promise<SluiceOnKafka> {
  running.push(await instance);
  return running[running.length - 1];
}

async function stopped(instance: SluiceOnKafka, options?: { keepState?: boolean }): Promise<void> {
  running.splice(running.indexOf(instance), 1);
  await instance.stop(options);
}

async function produce(topic: string, messages: { key?: string; value: string; timestamp?: number }[]): Promise<void> {
  const producer = cluster.kafkajs("sluice-on-kafka-feeder").producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: messages.map(({ key, value, timestamp }) => ({ key, value, timestamp: timestamp === undefined ? undefined : String(timestamp) })) });
  } finally {
    await producer.disconnect();
  }
  if (topic === "words") wordsFed.push(...messages.map((message) => message.value));
  if (topic === "words-b") wordsBFed.push(...messages.map((message) => message.value));
}

test.before(async () => {
  recorder = await startRequestRecorder(3);
  cluster = await startKafkaCluster({ mutualTls: true, proxiedListener: { advertisedPorts: recorder.ports } });
  cluster.nodes.forEach((node, index) => recorder.forward(index, node.ports.PROXIED!));
  const admin = cluster.kafkajs().admin();
  await admin.connect();
  await admin.createTopics({ topics: INPUTS.map((topic) => ({ topic, numPartitions: 3 })), waitForLeaders: true });
  await admin.disconnect();
  const versions = JSON.parse(await kafkaTool("class", ["dev.sluice.reference.ProtocolVersions"])) as { name: string; key: number; oldest: number; latest: number; deprecated: number[] }[];
  accepted = new Map(versions.map((api) => [api.key, api]));
});

test.after(async () => {
  for (const instance of running.splice(0)) await instance.stop();
  await recorder?.close();
  await cluster?.close();
});

/** The examples' inputs of a stage: lines, page views, clicks and readings with timestamps rising from T0. */
async function feedExamples(stage: "first" | "second"): Promise<void> {
  const view = (user: string, page: string, at: number) => ({ key: user, value: JSON.stringify({ user, page }), timestamp: T0 + at });
  if (stage === "first") {
    await produce("words", [{ value: "Apache Kafka hosts Sluice" }, { value: "Sluice counts the words of Apache Kafka" }, { value: "the words the counts" }]);
    await produce("words-b", [{ value: "to be or not to be" }]);
    await produce("pageviews", [view("ann", "/docs", 1_000), view("bob", "/docs", 2_000), view("ann", "/docs", 65_000), view("cat", "/blog", 70_000)]);
    // Clicks in time order: a session closes for good once stream time passes its end (no grace).
    await produce("clicks", [{ key: "ann", value: "/", timestamp: T0 }, { key: "bob", value: "/", timestamp: T0 + MINUTE }, { key: "ann", value: "/a", timestamp: T0 + 4 * MINUTE }]);
    await produce("readings", [
      { key: "s1", value: JSON.stringify({ celsius: 20 }), timestamp: T0 + 1_000 },
      { key: "s2", value: JSON.stringify({ celsius: 5 }), timestamp: T0 + 2_000 },
      { key: "s1", value: JSON.stringify({ celsius: 21 }), timestamp: T0 + 3_000 },
    ]);
  } else {
    await produce("words", [{ value: "mutual TLS counts the same words" }]);
    await produce("words-b", [{ value: "be quick" }]);
    await produce("pageviews", [view("bob", "/blog", 90_000), view("dan", "/docs", 185_000)]);
    await produce("clicks", [{ key: "bob", value: "/c", timestamp: T0 + 5 * MINUTE }, { key: "ann", value: "/b", timestamp: T0 + 20 * MINUTE }]);
    await produce("readings", [{ key: "s2", value: JSON.stringify({ celsius: 6 }), timestamp: T0 + 4_000 }]);
  }
}

/** What the examples' stores must hold after a stage. */
function expectedExamples(stage: "first" | "second") {
  const window = (page: string, minute: number, count: number) => ({ key: { key: page, window_start: T0 + minute * MINUTE, window_end: T0 + (minute + 1) * MINUTE }, value: count });
  const session = (user: string, from: number, to: number, count: number) => ({ key: { key: user, window_start: T0 + from * MINUTE, window_end: T0 + to * MINUTE }, value: count });
  return stage === "first"
    ? {
        views: [window("/blog", 1, 1), window("/docs", 0, 2), window("/docs", 1, 1)],
        sessions: [session("ann", 0, 4, 2), session("bob", 1, 1, 1)],
        latest: { s1: { celsius: 21, at: T0 + 3_000 }, s2: { celsius: 5, at: T0 + 2_000 } },
      }
    : {
        views: [window("/blog", 1, 2), window("/docs", 0, 2), window("/docs", 1, 1), window("/docs", 3, 1)],
        sessions: [session("ann", 0, 4, 2), session("ann", 20, 20, 1), session("bob", 1, 5, 2)],
        latest: { s1: { celsius: 21, at: T0 + 3_000 }, s2: { celsius: 6, at: T0 + 4_000 } },
      };
}

const byKey = (a: { key: unknown }, b: { key: unknown }) => (JSON.stringify(a.key) < JSON.stringify(b.key) ? -1 : 1);

/**
 * Waits until the four examples and wordcount-b hold exactly what `stage`'s inputs make; a failure says what the
 * instance warned of.
 */
async function untilExamplesExact(instance: SluiceOnKafka, stage: "first" | "second"): Promise<void> {
  try {
    await examplesExact(instance.url, stage);
  } catch (error) {
    const warnings = instance.process.logs().filter((line) => line.level === "warn" || line.level === "error");
    throw new Error(`${(error as Error).message}\n(${stage} stage) Sluice's warnings and errors:\n${warnings.map((line) => JSON.stringify(line)).join("\n")}`);
  }
}

async function examplesExact(url: string, stage: "first" | "second"): Promise<void> {
  const expected = expectedExamples(stage);
  await untilCounted(url, "wordcount", wordsFed);
  await untilCounted(url, "wordcount-b", wordsBFed);
  const views = await eventually(async () => {
    const records = await queryRecords(url, "pageviews", "views-per-minute", "window", { fetch_all: { time_from: T0, time_to: T0 + 30 * MINUTE } });
    return records?.length === expected.views.length && records;
  }, { timeoutMs: 60_000, what: "pageviews' windows" });
  assert.equal(views.sort(byKey), expected.views);
  let sessions: { key: unknown }[] = [];
  await eventually(async () => {
    sessions = [...((await queryRecords(url, "sessions", "user-sessions", "session", { fetch: { key: "ann" } })) ?? []), ...((await queryRecords(url, "sessions", "user-sessions", "session", { fetch: { key: "bob" } })) ?? [])];
    return sessions.length === expected.sessions.length;
  }, { timeoutMs: 60_000, what: "the sessions" }).catch((error: Error) => assert.unreachable(`${error.message}: ${JSON.stringify(sessions)}`));
  assert.equal(sessions.sort(byKey), expected.sessions);
  for (const [sensor, { celsius, at }] of Object.entries(expected.latest)) {
    const [reading] = await eventually(async () => {
      const records = await queryRecords(url, "latest", "latest-readings", "timestamped_key_value", { get: { key: sensor } });
      return records?.[0]?.timestamp === at && records;
    }, { timeoutMs: 60_000, what: `the latest reading of ${sensor}` });
    assert.equal(reading, { key: sensor, value: { celsius }, timestamp: at });
  }
}

/** The versions Sluice logged as negotiated, checked against what Kafka accepts. */
function negotiatedVersionsOf(instance: SluiceOnKafka): Record<string, number> {
  const line = instance.process.logs().find((entry) => entry.msg === "negotiated API versions");
  assert.ok(line, "Sluice logged the API versions it negotiated (debug)");
  return line!.versions as Record<string, number>;
}

function unacceptedVersions(requests: readonly Pick<RecordedRequest, "apiKey" | "version">[], brokerRanges: Map<number, { min: number; max: number }>): string[] {
  const problems = new Set<string>();
  for (const { apiKey, version } of requests) {
    const kafka = accepted.get(apiKey);
    const broker = brokerRanges.get(apiKey);
    const name = kafka?.name ?? `API key ${apiKey}`;
    if (!kafka || !broker) problems.add(`${name}: not an API Kafka 4.x's brokers serve to clients`);
    else if (version < broker.min || version > broker.max) problems.add(`${name} v${version}: the broker's ApiVersions answer is ${broker.min}-${broker.max}`);
    else if (version < kafka.oldest) problems.add(`${name} v${version}: removed (Kafka accepts ${kafka.oldest}-${kafka.latest})`);
    else if (version > kafka.latest) problems.add(`${name} v${version}: newer than Kafka's latest stable ${kafka.latest}`);
    else if (kafka.deprecated.includes(version)) problems.add(`${name} v${version}: deprecated`);
  }
  return [...problems];
}

/** The ranges of `kafka-broker-api-versions` for one broker: `Produce(0): 0 to 13 [usable: 13]`. */
async function brokerApiVersions(): Promise<Map<number, { min: number; max: number }>> {
  const stdout = await cluster.tool("kafka-broker-api-versions", []);
  const first = stdout.slice(0, stdout.indexOf(")\n") + 1);
  const ranges = new Map<number, { min: number; max: number }>();
  for (const match of first.matchAll(/\w+\((\d+)\): (\d+)(?: to (\d+))? \[usable/g)) ranges.set(Number(match[1]), { min: Number(match[2]), max: Number(match[3] ?? match[2]) });
  return ranges;
}

let examples: SluiceOnKafka;

test("the four examples and a deployed wordcount count exactly over SASL_SSL, then from their commits and changelogs over mutual TLS", async () => {
  await feedExamples("first");
  const overSasl = await started(startSluiceOn(cluster, "SASL_SSL", { logLevel: "debug" }));
  await deploy(overSasl.url, "WordCount", { "application.id": "wordcount-b", "input.topic": "words-b", "output.topic": "word-counts-b" });
  await untilExamplesExact(overSasl, "first");
  const negotiated = negotiatedVersionsOf(overSasl);
  assert.ok(negotiated.SaslHandshake !== undefined && negotiated.SaslAuthenticate !== undefined, JSON.stringify(negotiated));
  const names = new Map([...accepted.values()].map((api) => [api.name, api.key]));
  assert.equal(unacceptedVersions(Object.entries(negotiated).map(([name, version]) => ({ apiKey: names.get(name) ?? -1, version })), await brokerApiVersions()), []);
  await stopped(overSasl);

  // A new instance with no local state: the stores come back from their changelogs, the positions from the commits.
  await feedExamples("second");
  examples = await started(startSluiceOn(cluster, "SSL"));
  await deploy(examples.url, "WordCount", { "application.id": "wordcount-b", "input.topic": "words-b", "output.topic": "word-counts-b" });
  await untilExamplesExact(examples, "second");
  for (const application of ["wordcount", "wordcount-b", "pageviews", "sessions", "latest"]) assert.not.ok(stateChanges(examples.process, application).includes("ERROR"), application);

  // Kafka's Java consumer reads what Sluice wrote: the last count of each word is its count.
  const output = await cluster.tool("kafka-console-consumer", ["--topic", "word-counts", "--from-beginning", "--timeout-ms", "5000", "--formatter-property", "print.key=true", "--value-deserializer", "org.apache.kafka.common.serialization.LongDeserializer"]);
  assert.equal(sorted(Object.fromEntries(Object.entries(lastValues(output)).map(([word, count]) => [word, Number(count)]))), sorted(trueCounts(wordsFed)));
});

test("internal topics come out as Kafka Streams makes them: replication factor 3, changelogs compacted, repartition topics purged by the application", async () => {
  const topics = parseTopicDescriptions(await cluster.tool("kafka-topics", ["--describe"]));
  const changelog = { "cleanup.policy": "compact", "message.timestamp.type": "CreateTime", "min.insync.replicas": "2" };
  // The store's retention (the examples keep a day) plus windowstore.changelog.additional.retention.ms (a day).
  const windowedChangelog = { "cleanup.policy": "compact,delete", "message.timestamp.type": "CreateTime", "min.insync.replicas": "2", "retention.ms": String(2 * 24 * 60 * MINUTE) };
  const repartition = { "cleanup.policy": "delete", "message.timestamp.type": "CreateTime", "min.insync.replicas": "2", "retention.ms": "-1", "segment.bytes": "52428800" };
  const expected: Record<string, Record<string, string>> = {
    "wordcount-words-by-word-repartition": repartition,
    "wordcount-counts-changelog": changelog,
    "wordcount-b-words-by-word-repartition": repartition,
    "wordcount-b-counts-changelog": changelog,
    "pageviews-views-by-page-repartition": repartition,
    "pageviews-views-per-minute-changelog": windowedChangelog,
    "sessions-user-sessions-changelog": windowedChangelog,
    "latest-latest-readings-changelog": changelog,
  };
  const internal = [...topics.keys()].filter((topic) => /^(wordcount|wordcount-b|pageviews|sessions|latest)-.*-(changelog|repartition)$/.test(topic));
  assert.equal(internal.sort(), Object.keys(expected).sort());
  for (const [topic, configs] of Object.entries(expected)) {
    assert.equal(topics.get(topic), { partitions: 3, replicationFactor: 3, configs }, topic);
  }
});

test("kafka-consumer-groups --describe --group wordcount shows the committed offsets and lag of Sluice's /offsets", async () => {
  const paused = await http(`${examples.url}/api/v1/streams/wordcount/pause`, { method: "POST" });
  assert.is(paused.status, 200, paused.text);
  await produce("words", [{ value: "lag while paused" }, { value: "more lag" }, { value: "and more" }]);
  // Paused, Sluice fetches nothing more but keeps asking the log ends: the lag shows every line written.
  const sluiceRows = await eventually(async () => {
    const offsets = (await http(`${examples.url}/api/v1/streams/wordcount/offsets`)).json();
    const positions = offsets.consumers.flatMap((consumer: { positions: unknown[] }) => consumer.positions) as { topic: string; partition: number; committed_offset: number; log_end_offset: number; lag: number }[];
    const words = positions.filter((position) => position.topic === "words");
    return words.length === 3 && words.reduce((sum, position) => sum + position.lag, 0) === 3 && positions;
  }, { timeoutMs: 30_000, what: "wordcount's lag of 3 on words" });
  const kafkaRows = parseGroupOffsets(await cluster.tool("kafka-consumer-groups", ["--describe", "--group", "wordcount"]), "wordcount");
  const key = (row: { topic: string; partition: number }) => `${row.topic}-${row.partition}`;
  assert.equal(
    kafkaRows.map((row) => [key(row), row.currentOffset, row.logEndOffset, row.lag]).sort(),
    sluiceRows.map((row) => [key(row), row.committed_offset, row.log_end_offset, row.lag]).sort(),
  );
  assert.ok(kafkaRows.some((row) => row.topic === "wordcount-words-by-word-repartition"), "the repartition topic's partitions are the group's too");
  assert.is(kafkaRows.filter((row) => row.topic === "words").reduce((sum, row) => sum + row.lag, 0), 3);
  await http(`${examples.url}/api/v1/streams/wordcount/resume`, { method: "POST" });
  await untilCounted(examples.url, "wordcount", wordsFed);
});

test("every codec is read and written: Kafka's producer writes each, Sluice reads it and writes its own with it, Kafka's consumer reads that", async () => {
  const codecs = ["none", "gzip", "snappy", "lz4", "zstd"];
  // Words of each codec's own (gzip, gzip1, gzip2), so that one consumer of all the outputs tells them apart.
  const lines = (codec: string) => [`${codec} ${codec}1 ${codec}2`, `${codec}2`];
  const admin = cluster.kafkajs().admin();
  await admin.connect();
  await admin.createTopics({ topics: codecs.flatMap((codec) => [`words-${codec}`, `word-counts-${codec}`]).map((topic) => ({ topic, numPartitions: 1 })), waitForLeaders: true });
  await admin.disconnect();
  for (const codec of codecs) {
    await deploy(examples.url, "WordCount", { "application.id": `wordcount-${codec}`, "input.topic": `words-${codec}`, "output.topic": `word-counts-${codec}`, "compression.type": codec });
  }
  await Promise.all(codecs.map((codec) => cluster.tool("kafka-console-producer", ["--topic", `words-${codec}`, "--compression-codec", codec], { input: lines(codec).join("\n") + "\n" })));
  for (const codec of codecs) await untilCounted(examples.url, `wordcount-${codec}`, lines(codec));

  const output = await cluster.tool("kafka-console-consumer", ["--include", "word-counts-(none|gzip|snappy|lz4|zstd)", "--from-beginning", "--timeout-ms", "5000", "--formatter-property", "print.key=true", "--value-deserializer", "org.apache.kafka.common.serialization.LongDeserializer"]);
  assert.equal(sorted(Object.fromEntries(Object.entries(lastValues(output)).map(([word, count]) => [word, Number(count)]))), sorted(trueCounts(codecs.flatMap(lines))));

  // On disk, each batch is in the codec its producer chose: Kafka's for the inputs, Sluice's for its outputs and changelogs.
  const segment = (topic: string) => `${cluster.nodes[0].dataDir}/${topic}-0/00000000000000000000.log`;
  const files = codecs.flatMap((codec) => [segment(`words-${codec}`), segment(`word-counts-${codec}`), segment(`wordcount-${codec}-counts-changelog`)]);
  const dump = await kafkaTool("kafka-dump-log", ["--files", files.join(",")]);
  const codecsOf = new Map<string, Set<string>>();
  let file = "";
  for (const line of dump.split("\n")) {
    const dumping = /^Dumping (\S+)/.exec(line);
    if (dumping) file = dumping[1];
    const batch = /compresscodec: (\w+)/.exec(line);
    if (batch) codecsOf.set(file, (codecsOf.get(file) ?? new Set()).add(batch[1].toLowerCase()));
  }
  for (const codec of codecs) {
    for (const topic of [`words-${codec}`, `word-counts-${codec}`, `wordcount-${codec}-counts-changelog`]) {
      assert.equal([...(codecsOf.get(segment(topic)) ?? [])], [codec], `${topic}: ${dump}`);
    }
  }
});

test("two instances split the partitions and answer interactive queries for each other", async () => {
  await stopped(examples);
  const first = await started(startSluiceOn(cluster, "SASL_SSL"));
  const second = await started(startSluiceOn(cluster, "SASL_SSL"));
  await produce("words", [{ value: "two instances share the words" }, { value: "each answers for the other" }]);
  // The group's assignment, as either instance lists it: each has some of the words' partitions, none has one twice.
  type Instance = { server: string; assignments: { topic: string; partitions: number[] }[] };
  const wordsOf = (instance: Instance) => instance.assignments.filter((assignment) => assignment.topic === "words").flatMap((assignment) => assignment.partitions);
  const instances = await eventually(async () => {
    const listed = (await http(`${first.url}/api/v1/applications/wordcount`)).json().instances as Instance[] | undefined;
    const running = (await stateOf(first.url, "wordcount")) === "RUNNING" && (await stateOf(second.url, "wordcount")) === "RUNNING";
    return running && listed?.length === 2 && listed.every((instance) => wordsOf(instance).length > 0) && listed;
  }, { timeoutMs: 60_000, what: "wordcount's partitions split between two instances" });
  assert.equal(instances.flatMap(wordsOf).sort(), [0, 1, 2]);
  assert.equal(instances.map((instance) => instance.server).sort(), [first.url, second.url].map((url) => url.replace("http://", "")).sort());
  const counts = trueCounts(wordsFed);
  for (const url of [first.url, second.url]) {
    await untilCounted(url, "wordcount", wordsFed);
    for (const word of ["two", "each", "kafka", "sluice", "lag"]) {
      const records = await queryRecords(url, "wordcount", "counts", "key_value", { get: { key: word } });
      assert.equal(records, [{ key: word, value: counts[word] }], `${word} through ${url}`);
    }
  }
  // Each instance owns some of the words' partitions: its `all` answer is its own and the other's.
  const local = async (url: string) => (await http(`${url}/api/v1/applications/wordcount/stores/counts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "key_value", query: { all: {} } }) })).json();
  const [mine, theirs] = [await local(first.url), await local(second.url)];
  const localCount = (answer: { result: { success: { records: unknown[] }[] } }) => answer.result.success.reduce((sum, entry) => sum + entry.records.length, 0);
  assert.ok(localCount(mine) > 0 && localCount(theirs) > 0, `both hold counts: ${localCount(mine)} and ${localCount(theirs)}`);
  assert.is(localCount(mine) + localCount(theirs), Object.keys(counts).length);
  assert.equal(sorted((await countsOf(first.url))!), sorted(counts));
  await stopped(second);
  await stopped(first);
});

test("Sluice sends no request version Apache Kafka 4.x removed or deprecated (every request on the wire, against the broker's ApiVersions)", async () => {
  const before = recorder.requests.length;
  const instance = await started(startSluiceOn(cluster, "PROXIED", { flags: ["--streams.repartition.purge.interval.ms=200"] }));
  // A new application on new topics: Sluice creates them, and purges its repartition topic.
  await deploy(instance.url, "WordCount", { "application.id": "wordcount-wire", "input.topic": "words-wire", "output.topic": "word-counts-wire", "auto.create.topics": "true" });
  await produce("words", [{ value: "every request on the wire" }]);
  await untilCounted(instance.url, "wordcount", wordsFed);
  await eventually(async () => (await stateOf(instance.url, "wordcount-wire")) === "RUNNING", { timeoutMs: 60_000, what: "wordcount-wire running" });
  await produce("words-wire", [{ value: "wire words" }, { value: "purged from the repartition topic" }]);
  await untilCounted(instance.url, "wordcount-wire", ["wire words", "purged from the repartition topic"]);
  await eventually(() => recorder.requests.slice(before).some((request) => accepted.get(request.apiKey)?.name === "DeleteRecords"), { timeoutMs: 30_000, what: "a purge of the repartition topic (DeleteRecords)" });
  await http(`${instance.url}/api/v1/streams/wordcount/offsets`);
  await http(`${instance.url}/api/v1/applications/wordcount`);
  await http(`${instance.url}/api/v1/streams/wordcount/restart`, { method: "POST" });
  await eventually(async () => (await stateOf(instance.url, "wordcount")) === "RUNNING", { timeoutMs: 30_000, what: "wordcount running again" });
  // A member heartbeats once per heartbeat interval after it joined: on a quick run everything above can be over sooner.
  await eventually(() => recorder.requests.slice(before).some((request) => accepted.get(request.apiKey)?.name === "Heartbeat"), { timeoutMs: 30_000, what: "a Heartbeat of a group member" });
  await stopped(instance);
  const sent = recorder.requests.slice(before);
  const used = new Map<string, Set<number>>();
  for (const { apiKey, version } of sent) {
    const name = accepted.get(apiKey)?.name ?? String(apiKey);
    used.set(name, (used.get(name) ?? new Set()).add(version));
  }
  console.log(`requests Sluice sent to Apache Kafka ${cluster.version}: ${[...used].map(([name, versions]) => `${name} v${[...versions].sort((a, b) => a - b).join("/")}`).join(", ")}`);
  for (const api of ["Produce", "Fetch", "Metadata", "OffsetCommit", "OffsetFetch", "JoinGroup", "SyncGroup", "Heartbeat", "LeaveGroup", "InitProducerId", "ListOffsets", "CreateTopics", "DeleteRecords"]) {
    assert.ok(used.has(api), `${api} was sent (${[...used.keys()].join(", ")})`);
  }
  const brokerRanges = await brokerApiVersions();
  assert.equal(unacceptedVersions(sent, brokerRanges), []);
  // The broker lists Produce from version 0 (for old clients' sake) but refuses 0-2: the check knows it from Kafka itself.
  assert.equal(unacceptedVersions([{ apiKey: 0, version: 2 }], brokerRanges), ["Produce v2: removed (Kafka accepts 3-13)"]);
});

/**
 * `lines` written to `topic` by Kafka's console producer (idempotent, acks=all), a slice at a time, while `during`
 * runs; resolves once all are written and `during` is done. A line Kafka's producer failed to send fails the test.
 * One request in flight: with more, Kafka's producer (4.4.0) was seen to retry a batch against a newly elected
 * leader with OUT_OF_ORDER_SEQUENCE_NUMBER until the batch expired.
 */
async function produceWhile(topic: string, lines: string[], during: (progress: () => number) => Promise<void>): Promise<void> {
  const producer = startKafkaTool("kafka-console-producer", ["--bootstrap-server", cluster.bootstrap(), "--topic", topic, "--request-required-acks", "all", "--request-timeout-ms", "30000", "--message-send-max-retries", "2147483647", "--command-property", "linger.ms=5", "--command-property", "max.in.flight.requests.per.connection=1"], { input: null, timeoutMs: 300_000 });
  let written = 0;
  const writing = (async () => {
    for (; written < lines.length; written += 200) {
      if (!producer.child.stdin!.write(lines.slice(written, written + 200).join("\n") + "\n")) await new Promise((resolve) => producer.child.stdin!.once("drain", resolve));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    producer.child.stdin!.end();
  })();
  await during(() => written);
  await writing;
  const result = await producer.result;
  assert.is(result.code, 0, result.stderr);
  assert.not.ok(/Error when sending/.test(result.stderr), `Kafka's producer lost lines: ${result.stderr}`);
}

const VOCABULARY = Array.from({ length: 50 }, (_, i) => `w${i}`);
const loadLines = (count: number, seed: number) => Array.from({ length: count }, (_, i) => Array.from({ length: 5 }, (_, j) => VOCABULARY[((seed + i) * 7 + j * 13) % VOCABULARY.length]).join(" "));

let underLoad: SluiceOnKafka;
const chaosFed: string[] = [];

test("the leader of an input partition is SIGKILLed under load: Sluice rides through the election with exact counts, never in ERROR", async () => {
  const admin = cluster.kafkajs().admin();
  await admin.connect();
  await admin.createTopics({ topics: ["words-chaos", "word-counts-chaos"].map((topic) => ({ topic, numPartitions: 3 })), waitForLeaders: true });
  await admin.disconnect();
  underLoad = await started(startSluiceOn(cluster, "SASL_SSL", { flags: ["--applications.wordcount.autostart=false", "--applications.pageviews.autostart=false", "--applications.sessions.autostart=false", "--applications.latest.autostart=false"] }));
  await deploy(underLoad.url, "WordCount", { "application.id": "wordcount-chaos", "input.topic": "words-chaos", "output.topic": "word-counts-chaos" });
  await eventually(async () => (await stateOf(underLoad.url, "wordcount-chaos")) === "RUNNING", { timeoutMs: 60_000, what: "wordcount-chaos running" });
  const lines = loadLines(20_000, 0);
  const leader = await cluster.leaderOf("words-chaos", 0);
  try {
    await produceWhile("words-chaos", lines, async (progress) => {
      await eventually(() => progress() >= 6_000, { timeoutMs: 60_000, what: "load under way" });
      await cluster.kill(leader);
      await eventually(async () => (await cluster.leaderOf("words-chaos", 0)) !== leader, { timeoutMs: 60_000, intervalMs: 250, what: "a new leader of words-chaos-0" });
    });
    chaosFed.push(...lines);
    await untilCounted(underLoad.url, "wordcount-chaos", chaosFed, 120_000);
  } finally {
    // The next test restarts every node: this one must be back first.
    await cluster.start(leader);
    await cluster.waitInSync();
  }
  assert.not.ok(stateChanges(underLoad.process, "wordcount-chaos").includes("ERROR"), stateChanges(underLoad.process, "wordcount-chaos").join(" → "));
  assert.is(await stateOf(underLoad.url, "wordcount-chaos"), "RUNNING");
});

test("a rolling restart of all three brokers under load: exact counts, never in ERROR", async () => {
  const lines = loadLines(30_000, 1);
  await produceWhile("words-chaos", lines, async () => {
    for (const node of cluster.nodes) {
      await cluster.stop(node.id);
      await cluster.start(node.id);
      await cluster.waitInSync();
    }
  });
  chaosFed.push(...lines);
  await untilCounted(underLoad.url, "wordcount-chaos", chaosFed, 120_000);
  assert.not.ok(stateChanges(underLoad.process, "wordcount-chaos").includes("ERROR"), stateChanges(underLoad.process, "wordcount-chaos").join(" → "));
  assert.is(await stateOf(underLoad.url, "wordcount-chaos"), "RUNNING");
});

test.run();
